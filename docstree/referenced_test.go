package docstree

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/report"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		write(t, dir, rel, content)
	}
}

// Issue 27: the files pages show from outside the documentation roots,
// or from a hidden folder inside one, are the referenced files; nothing
// that climbs out of the repository or into .git is, nor a page, nor a
// file the roots publish anyway.
func TestReferencedListsWhatTheRootsDoNotPublish(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"docs/guide/tour.md": strings.Join([]string{
			"# Tour",
			"![harbour](../.gitbook/assets/harbour.png) ![pier](img/pier.png)",
			"![lighthouse](../../artwork/lighthouse.png) [chart](/artwork/chart.pdf)",
			"[docs-rooted](/art/boat.png) [elsewhere](../../notes/other.md)",
			"![sea](../../../sea.png) [config](../../.git/config) [site](https://example.org/x.png)",
			"```",
			"![in code](../../artwork/code.png)",
			"```",
		}, "\n"),
		// A page whose only reference is in raw HTML (GitBook's figure).
		"docs/setup.md": `<figure><img src=".gitbook/assets/compass.png" alt=""></figure>`,
	})
	got := Referenced(repo, []string{"docs"}, Policy{})
	// /art/boat.png read from the documentation root is docs/art/boat.png,
	// which the root publishes; read from the repository's root it is not.
	// Each rooted one also asks for the one file anywhere whose path ends
	// with it (gitx.AnyFolder).
	want := []string{"**/art/boat.png", "**/artwork/chart.pdf", "art/boat.png", "artwork/chart.pdf", "artwork/lighthouse.png", "docs/.gitbook/assets/compass.png", "docs/.gitbook/assets/harbour.png"}
	if !slices.Equal(got, want) {
		t.Fatalf("Referenced = %v, want %v", got, want)
	}
}

// Referenced files join the tree at _files/<repository path> with the
// rules of every file: over max_file_bytes they are refused by their size,
// an untrusted repository's active documents are left out, and a path
// through a symbolic link is not followed.
func TestCollectReferencedKeepsTheRules(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"docs/index.md":                    "# Home",
		"docs/.gitbook/assets/harbour.png": "png",
		"artwork/lighthouse.png":           "png",
		"artwork/huge.png":                 strings.Repeat("x", 2048),
		"artwork/drawing.svg":              "<svg/>",
		"elsewhere/secret.png":             "png",
	})
	if err := os.Symlink(filepath.Join(repo, "elsewhere"), filepath.Join(repo, "linked")); err != nil {
		t.Fatal(err)
	}
	policy := Policy{Limits: config.InputLimits{MaxFileBytes: 1024}, Untrusted: true}
	files, issues, err := CollectDocsWith(repo, []string{"docs"}, []string{
		"docs/.gitbook/assets/harbour.png", "artwork/lighthouse.png", "artwork/huge.png",
		"artwork/drawing.svg", "linked/secret.png", "artwork/missing.png",
	}, policy)
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, f := range files {
		rels = append(rels, f.Rel)
	}
	for _, want := range []string{"_files/artwork/lighthouse.png", "_files/docs/_.gitbook/assets/harbour.png", "index.md"} {
		if !slices.Contains(rels, want) {
			t.Errorf("tree %v lacks %s", rels, want)
		}
	}
	if len(rels) != 4 { // and .gitbook/assets/harbour.png, as before
		t.Errorf("tree %v, want 4 files", rels)
	}
	codes := map[string]string{}
	for _, is := range issues {
		codes[is.Path] = is.Code
	}
	for p, code := range map[string]string{"artwork/huge.png": report.CodeFileTooLarge, "artwork/drawing.svg": report.CodeUntrustedFile, "linked/secret.png": report.CodeSymlinkEscape} {
		if codes[p] != code {
			t.Errorf("%s: issue %q, want %s (issues %v)", p, codes[p], code, issues)
		}
	}
}

func TestReferencedRelHidesNothingAndKeepsPathsApart(t *testing.T) {
	for in, want := range map[string]string{
		".gitbook/assets/a.png": "_files/_.gitbook/assets/a.png",
		"_x/a.png":              "_files/__x/a.png",
		"public/assets/a.png":   "_files/public/assets/a.png",
	} {
		if got := ReferencedRel(in); got != want {
			t.Errorf("ReferencedRel(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 28: Docusaurus names a file from its site's folder as @site/…;
// that folder holds the docusaurus.config wherever it is, so the path is
// asked for in any folder, as a rooted one is. GitBook's file block names
// a file to download.
func TestReferencedReadsDocusaurusSitePathsAndGitBookFiles(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{
		"docs/intro.md": "![logo](@site/static/img/logo.png)\n\n{% file src=\".gitbook/assets/plan.pdf\" %}\n",
	})
	got := Referenced(repo, []string{"docs"}, Policy{})
	want := []string{"**/static/img/logo.png", "docs/.gitbook/assets/plan.pdf", "static/img/logo.png"}
	if !slices.Equal(got, want) {
		t.Fatalf("Referenced = %v, want %v", got, want)
	}
}
