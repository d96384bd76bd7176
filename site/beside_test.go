package site

import (
	"strings"
	"testing"
)

// TestAPageBesideAFolderOfTheSameNameIsReported: a page setup.md next to a
// folder setup/ with pages of its own claim one URL, /setup/, and Hugo
// wrote one over the other without a word (a real repository lost a
// proposal that way). The folder's page keeps the URL and the page beside
// it is reported, never lost in silence.
func TestAPageBesideAFolderOfTheSameNameIsReported(t *testing.T) {
	res, published := renderOneRepository(t, "kiln", map[string]string{
		"content/kiln/_index.md":             "---\ntitle: Kiln\n---\nFiring notes.\n",
		"content/kiln/setup.md":              "---\ntitle: Setup in one page\n---\nThe short version of the setup.\n",
		"content/kiln/setup/README.md":       "# Setup\n\nThe setup, step by step.\n",
		"content/kiln/setup/first-firing.md": "# First firing\n\nSlowly.\n",
	})
	var found bool
	for _, is := range res.Issues {
		if is.Code == IssueIndexShadowed && is.Path == "kiln/setup.md" && strings.Contains(is.Message, "folder setup/") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no INDEX_SHADOWED issue for kiln/setup.md: %+v", res.Issues)
	}
	page := published["docs/kiln/setup/index.html"]
	if !strings.Contains(page, "step by step") || strings.Contains(page, "short version") {
		t.Fatalf("/kiln/setup/ is not the folder's page:\n%.400s", page)
	}
	if !strings.Contains(published["docs/kiln/setup/first-firing/index.html"], "Slowly") {
		t.Fatal("the folder's other page is missing")
	}
}

// TestAPageBesideAFolderWithoutAPageBecomesItsPage: glaze.md next to a
// folder glaze/ that has pages but no README or index is the folder's
// page, not a page written over by the folder's generated list.
func TestAPageBesideAFolderWithoutAPageBecomesItsPage(t *testing.T) {
	res, published := renderOneRepository(t, "kiln", map[string]string{
		"content/kiln/_index.md":        "---\ntitle: Kiln\n---\nFiring notes.\n",
		"content/kiln/glaze.md":         "---\ntitle: Glazes\n---\nWhat every glaze needs.\n",
		"content/kiln/glaze/celadon.md": "# Celadon\n\nGreen and clear.\n",
	})
	for _, is := range res.Issues {
		if is.Code == IssueIndexShadowed {
			t.Fatalf("glaze.md reported as shadowed: %+v", is)
		}
	}
	page := published["docs/kiln/glaze/index.html"]
	if !strings.Contains(page, "What every glaze needs") || !strings.Contains(page, "Celadon") {
		t.Fatalf("/kiln/glaze/ is not glaze.md listing its folder:\n%.600s", page)
	}
}
