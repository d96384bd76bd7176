package material

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/model"
)

// repository writes files under a temporary repository folder (and a
// secret beside it) and opens it as the render does.
func repository(t *testing.T, files map[string]string) dialect.Page {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	for name, text := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(repo, "link.md")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(repo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return dialect.Page{Files: root.FS(), Path: "guide/page.md", DocRoots: []string{"docs"}}
}

func TestSnippetsIncludeFilesOfTheRepositoryOnly(t *testing.T) {
	p := repository(t, map[string]string{
		"includes/note.md":  "Shared *note*.\n--8<-- \"includes/inner.md\"\n",
		"includes/inner.md": "Inner.\n",
		"guide/local.md":    "Local.\n",
		"code.py":           "a\nb\nc\nd\n",
		"big.md":            strings.Repeat("x", maxSnippetSize+1),
	})
	p.Source = []byte("Top.\n  --8<-- \"docs/includes/note.md\"\n;--8<-- \"shown.md\"\n--8<-- \"local.md\"\n" +
		"--8<-- \"code.py:2:3\"\n--8<--\nmissing.md\n../secret.txt\n--8<--\n--8<-- \"link.md\"\n--8<-- \"/etc/passwd\"\n--8<-- \"big.md\"\n--8<-- \"https://example.org/x.md\"\n:nosuchicon: :material-nope:\n")
	body, notes, origLine := includeSnippets(p)
	want := "Top.\n  Shared *note*.\n  Inner.\n--8<-- \"shown.md\"\nLocal.\nb\nc\n\n\n\n\n\n:nosuchicon: :material-nope:\n"
	if string(body) != want {
		t.Errorf("body:\n got %q\nwant %q", body, want)
	}
	if strings.Contains(string(body), "SECRET") {
		t.Error("a file outside the repository was included")
	}
	wantNotes := map[int]string{7: "missing.md", 8: "../secret.txt", 10: "link.md", 11: "/etc/passwd", 12: "big.md", 13: "https://"}
	if len(notes) != len(wantNotes) {
		t.Errorf("notes = %+v", notes)
	}
	for _, n := range notes {
		if n.Code != model.IssueSnippetNotIncluded || !strings.Contains(n.Message, wantNotes[n.Line]) {
			t.Errorf("note %+v, want one naming %q", n, wantNotes[n.Line])
		}
	}
	if got := origLine(13); got != 14 {
		t.Errorf("origLine(13) = %d, want 14 (the icons' line as written)", got)
	}
}

func TestSnippetsAreBounded(t *testing.T) {
	p := repository(t, map[string]string{"loop.md": "--8<-- \"loop.md\"\n"})
	p.Source = []byte("--8<-- \"loop.md\"\n")
	body, notes, _ := includeSnippets(p)
	if len(notes) != 1 || !strings.Contains(notes[0].Message, "deep") || strings.TrimSpace(string(body)) != "" {
		t.Errorf("body %q, notes %+v: want nothing included and one note on the nesting", body, notes)
	}
}

func TestConvertNotesNameTheLineAsWritten(t *testing.T) {
	p := repository(t, map[string]string{"three.md": "1\n2\n3\n"})
	p.Source = []byte("--8<-- \"three.md\"\n\n:material-nope:\n")
	_, notes := Dialect{}.Convert(p)
	if len(notes) != 1 || notes[0].Line != 3 || notes[0].Code != model.IssueIconUnknown {
		t.Errorf("notes = %+v, want ICON_UNKNOWN on line 3", notes)
	}
}
