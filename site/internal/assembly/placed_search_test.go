package assembly

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/docweave/docweave/site/internal/searchindex"
)

// searchBook makes a book of entries as the theme's template writes them.
func searchBook(t *testing.T, entries ...map[string]any) []searchindex.Entry {
	t.Helper()
	data, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	var book []searchindex.Entry
	if err := json.Unmarshal(data, &book); err != nil {
		t.Fatal(err)
	}
	return book
}

// textsFile is the name of the search texts file holding data (named by
// its content, as searchindex names it).
func textsFile(data string) string {
	sum := sha256.Sum256([]byte(data))
	return "texts." + hex.EncodeToString(sum[:16]) + ".json"
}

func TestPlacingSearchFilesWritesOnlyWhatChanged(t *testing.T) {
	dir := t.TempDir()
	page := func(n int, text string) map[string]any {
		return map[string]any{"title": fmt.Sprint("Page ", n), "url": fmt.Sprintf("/docs/r/p%d/", n), "repository": "r", "section": "", "tags": []any{}, "text": text}
	}
	// Two books: the first stays as it is, the second changes.
	book := func(text string) [][]searchindex.Entry {
		return [][]searchindex.Entry{searchBook(t, page(1, "one stays")), searchBook(t, page(2, text))}
	}
	first, err := searchindex.Compact(book("two goes"))
	if err != nil {
		t.Fatal(err)
	}
	placed, err := PlaceSearchFiles(dir, first, nil)
	if err != nil {
		t.Fatal(err)
	}
	stays := filepath.Join(dir, "search", textsFile(`["one stays"]`))
	goes := filepath.Join(dir, "search", textsFile(`["two goes"]`))
	before, err := os.Stat(stays)
	if err != nil {
		t.Fatal(err)
	}
	second, err := searchindex.Compact(book("two changed"))
	if err != nil {
		t.Fatal(err)
	}
	if placed, err = PlaceSearchFiles(dir, second, placed); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(stays)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("an unchanged book's texts were written again (%v)", err)
	}
	onDisk, err := hashTree(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(onDisk, placed) {
		t.Errorf("the directory holds\n%v\nthe list says\n%v", onDisk, placed)
	}
	if _, err := os.Stat(goes); !os.IsNotExist(err) {
		t.Errorf("the old text stayed: %v", err)
	}

	// Without pages nothing but the manifest is left.
	empty, err := searchindex.Compact(nil)
	if err != nil {
		t.Fatal(err)
	}
	if placed, err = PlaceSearchFiles(dir, empty, placed); err != nil {
		t.Fatal(err)
	}
	if len(placed) != 1 || placed[0].Rel != searchindex.ManifestFile {
		t.Errorf("left %v, want the manifest alone", placed)
	}
}
