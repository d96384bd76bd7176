package mdcopy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTheSiteIndexHasASectionPerRepository: title, description, then per
// repository a link to its full file and its directory pages in menu
// order.
func TestTheSiteIndexHasASectionPerRepository(t *testing.T) {
	dir := t.TempDir()
	err := New("/").WriteSiteIndex(dir, "Handbook", "All our\ndocs.", []Section{
		{Name: "orchard", URL: "/docs/orchard/", Pages: []Page{
			{Path: "/b", URL: "/docs/orchard/b/", Title: "Bees", Description: "Who pollinates."},
			{Path: "", URL: "/docs/orchard/", Title: "Orchard"},
			{Path: "/x", URL: "/docs/orchard/x.json", Title: "Data"},
		}},
		{Name: "barn", URL: "/docs/barn/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "llms.txt"))
	want := "# Handbook\n\n> All our docs.\n\n## orchard\n\nEvery page of it in one file: [llms-full.txt](/docs/orchard/llms-full.txt)\n\n" +
		"- [Orchard](/docs/orchard/index.md)\n- [Bees](/docs/orchard/b/index.md): Who pollinates.\n\n## barn\n\nEvery page of it in one file: [llms-full.txt](/docs/barn/llms-full.txt)\n\n"
	if string(got) != want {
		t.Errorf("llms.txt =\n%q\nwant\n%q", got, want)
	}
}
