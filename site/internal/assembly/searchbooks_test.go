package assembly

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/searchindex"
)

// The index made of kept books — made by one assembly, read back by the
// next — is the index made of the units' records at once (Compact), and
// a book no unit has any more is not kept.
func TestKeptSearchBooksMakeTheSameIndex(t *testing.T) {
	repos := []model.Repository{{Name: "one", ContentPath: "one"}, {Name: "two", ContentPath: "two"}}
	records := func(repo, text string) []byte {
		data, _ := json.Marshal([]map[string]any{
			{"title": "Start", "url": "/docs/" + repo + "/", "repository": repo, "section": "", "tags": []any{}, "text": text, "headings": "Begin here"},
			{"title": "Later", "url": "/docs/" + repo + "/later/", "repository": repo, "section": "guide", "tags": []any{}, "text": "more words about " + repo},
		})
		return data
	}
	units := []RenderedUnit{{Path: "two", Search: records("two", "second unit text")}, {Path: "one", Search: records("one", "first unit text")}}
	keep := t.TempDir()
	index := func(units []RenderedUnit) (map[string]string, map[string]string) {
		t.Helper()
		dir := t.TempDir()
		books, err := searchBooks(keep, repos, units)
		if err != nil {
			t.Fatal(err)
		}
		var made []*searchindex.Book
		for _, b := range books {
			made = append(made, b.book)
		}
		joined, err := searchindex.Join(made)
		if err != nil {
			t.Fatal(err)
		}
		placed, err := placeBooks(dir, books, joined, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range placed {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Rel)))
			if err != nil {
				t.Fatal(err)
			}
			got[f.Rel] = string(data)
		}
		var all [][]searchindex.Entry
		for _, r := range repos {
			for _, u := range units {
				if u.Path == r.ContentPath {
					var e []searchindex.Entry
					if err := json.Unmarshal(u.Search, &e); err != nil {
						t.Fatal(err)
					}
					all = append(all, e)
				}
			}
		}
		files, err := searchindex.Compact(all)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for rel, data := range files {
			want[rel] = string(data)
		}
		return got, want
	}
	for _, round := range []string{"made", "read back"} {
		got, want := index(units)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: the index of kept books differs from Compact's:\n%v\n%v", round, got, want)
		}
	}
	units[0].Search = records("two", "the second unit changed")
	if got, want := index(units); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("a unit changed: the index differs from Compact's")
	}
	if entries, _ := os.ReadDir(keep); len(entries) != 2 {
		t.Errorf("kept books: %d, want the 2 the units have", len(entries))
	}
}
