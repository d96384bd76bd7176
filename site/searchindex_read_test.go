package site

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/site/internal/searchindex"
)

// searchEntriesJSON is the search index of a published site as one JSON
// array of entries, the form the theme's template writes for a unit.
func searchEntriesJSON(t testing.TB, publishDir string) string {
	t.Helper()
	entries, err := searchindex.Decode(func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(publishDir, filepath.FromSlash(rel)))
	})
	if err != nil {
		t.Fatalf("the search index of %s: %v", publishDir, err)
	}
	if entries == nil {
		entries = []json.RawMessage{}
	}
	data, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
