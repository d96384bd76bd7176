package searchindex

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func TestTextWordsAreRunsOfLettersAndDigits(t *testing.T) {
	got := textWords("Configure TLS: x86_64, naïve CAFÉ 2.0 — configure tls ²")
	want := []string{"configure", "tls", "x86", "64", "naïve", "café", "2", "0", "²"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("textWords = %q, want %q", got, want)
	}
}

// searchBook makes a book of entries as the theme's template writes them.
func searchBook(t *testing.T, entries ...map[string]any) []Entry {
	t.Helper()
	data, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	var book []Entry
	if err := json.Unmarshal(data, &book); err != nil {
		t.Fatal(err)
	}
	return book
}

func TestCompactSearchKeepsEveryEntry(t *testing.T) {
	written := [][]map[string]any{
		{
			map[string]any{"title": "Alpha", "url": "/docs/alpha/", "repository": "alpha", "section": "", "tags": []any{}, "text": "Alpha <b>welcomes</b> you & all"},
			map[string]any{"title": "Install", "url": "/docs/alpha/guide/install/", "repository": "alpha", "section": "Guide", "tags": []any{"setup", 2}, "text": "Install it."},
			map[string]any{"title": "Empty", "url": "/docs/alpha/guide/empty/", "repository": "alpha", "section": "Guide", "tags": []any{}, "text": ""},
		},
		{}, // a unit without pages
		{
			map[string]any{"title": "Gamma", "url": "/docs/gamma/v1/", "repository": "gamma", "section": "", "tags": []any{}, "text": "Install it.", "version": "v1", "versionIsDefault": false, "versionRank": 1},
			map[string]any{"title": "Other place", "url": "/elsewhere/", "repository": "gamma", "section": "", "tags": []any{}, "text": "Far", "version": "v1", "versionIsDefault": false, "versionRank": 1},
		},
	}
	var books [][]Entry
	for _, b := range written {
		books = append(books, searchBook(t, b...))
	}
	files, err := Compact(books)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(func(rel string) ([]byte, error) {
		data, ok := files[rel]
		if !ok {
			return nil, fmt.Errorf("no file %s", rel)
		}
		return data, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []json.RawMessage
	for _, b := range written {
		for _, e := range b {
			data, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, data)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries read back, want %d", len(got), len(want))
	}
	for i := range want {
		var g, w any
		_ = json.Unmarshal(got[i], &g)
		_ = json.Unmarshal(want[i], &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("entry %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}

	// Every piece but the manifest is named by its content.
	named := regexp.MustCompile(`^search/(pages|words|texts)\.([0-9a-f]{32})\.json$`)
	for rel, data := range files {
		if rel == ManifestFile {
			continue
		}
		m := named.FindStringSubmatch(rel)
		sum := sha256.Sum256(data)
		if m == nil || m[2] != hex.EncodeToString(sum[:16]) {
			t.Errorf("%s is not named by its content", rel)
		}
	}
}

func TestTextsFilesHoldARunOfPages(t *testing.T) {
	var entries []map[string]any
	for p := 0; p < 40; p++ {
		text := strings.Repeat(fmt.Sprintf("page %d ", p), 200) // about 1.5 KB
		if p%10 == 3 {
			text = ""
		}
		entries = append(entries, map[string]any{"title": "t", "url": fmt.Sprintf("/docs/r/p%d/", p), "repository": "r", "section": "", "tags": []any{}, "text": text})
	}
	files, err := Compact([][]Entry{searchBook(t, entries...)})
	if err != nil {
		t.Fatal(err)
	}
	texts := 0
	for rel, data := range files {
		if !strings.HasPrefix(rel, "search/texts.") {
			continue
		}
		texts++
		var run []string
		if err := json.Unmarshal(data, &run); err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, text := range run[:len(run)-1] {
			size += len(text)
		}
		if size >= searchTextBytes {
			t.Errorf("%s holds %d pages, more than fill %d bytes", rel, len(run), searchTextBytes)
		}
	}
	// 36 texts of about 1.5 KB, a file filled at 8 KB: six pages a file.
	if texts < 5 || texts > 8 {
		t.Errorf("%d texts files for 36 texts of 1.5 KB", texts)
	}
}

func TestWordChunksListEveryWordOnceWithItsPages(t *testing.T) {
	// Enough pages and words for several chunks.
	var entries []map[string]any
	want := map[string][]int{}
	for p := 0; p < 1500; p++ {
		var words []string
		for w := p % 7; w < 300; w += 7 {
			word := fmt.Sprintf("word%03d", w)
			words = append(words, word)
			want[word] = append(want[word], p)
		}
		entries = append(entries, map[string]any{"title": "t", "url": fmt.Sprintf("/docs/r/p%d/", p), "repository": "r", "section": "", "tags": []any{}, "text": strings.Join(words, " ")})
	}
	files, err := Compact([][]Entry{searchBook(t, entries...)})
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(files[ManifestFile], &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Words) < 3 {
		t.Fatalf("%d word chunks, want several", len(m.Words))
	}
	got := map[string][]int{}
	var order []string
	for i, ref := range m.Words {
		var c searchChunkFile
		if err := json.Unmarshal(files[path.Join("search", ref.File)], &c); err != nil {
			t.Fatal(err)
		}
		if c.Words[0] != ref.First {
			t.Errorf("chunk %d starts with %q, the manifest says %q", i, c.Words[0], ref.First)
		}
		for j, w := range c.Words {
			if _, dup := got[w]; dup {
				t.Errorf("%q is in two chunks", w)
			}
			page := 0
			for _, gap := range c.Pages[j] {
				page += gap
				got[w] = append(got[w], page)
			}
			order = append(order, w)
		}
	}
	if !sort.StringsAreSorted(order) {
		t.Error("the chunks' words are not in order")
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the chunks' pages differ from the pages holding each word")
	}
}
