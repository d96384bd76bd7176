package hugo

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docweave/docweave/site/theme"
)

// TestHugoShortcodeListMatchesTheHugoModule compares hugoShortcodes and
// removedHugoShortcodes with the shortcodes built into the Hugo module in
// go.mod, so upgrading Hugo cannot silently change which tags are dropped.
func TestHugoShortcodeListMatchesTheHugoModule(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/gohugoio/hugo").Output()
	if err != nil {
		t.Fatalf("locate the Hugo module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "tpl", "tplimpl", "embedded", "templates", "_shortcodes")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("read Hugo's built-in shortcodes: %v", err)
	}
	var builtIn []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".html")
		if strings.HasPrefix(name, "1__") { // shared definitions, not a shortcode
			continue
		}
		builtIn = append(builtIn, name)
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		inner, listed := hugoShortcodes[name]
		switch {
		case slices.Contains(removedHugoShortcodes, name):
			if listed {
				t.Errorf("%s is both usable and removed", name)
			}
			if !strings.Contains(string(data), "errorf") {
				t.Errorf("%s is listed as removed but does not stop the build any more", name)
			}
		case !listed:
			t.Errorf("Hugo's built-in shortcode %s is in neither list", name)
		case inner != strings.Contains(string(data), ".Inner"):
			t.Errorf("%s: takes content = %v, but its template says otherwise", name, inner)
		}
	}
	for name := range hugoShortcodes {
		if !slices.Contains(builtIn, name) {
			t.Errorf("%s is listed but not built into Hugo", name)
		}
	}
}

func TestKnownShortcodesIncludesTheThemes(t *testing.T) {
	known, err := Known(theme.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"hint", "Notice", "alert", "note", "tip", "warning", "caution", "danger", "info", "highlight", "figure"} {
		if !known.has(name) {
			t.Errorf("%s is not known", name)
		}
	}
	if !known.needsInner("hint") || known.needsInner("figure") {
		t.Error("whether a shortcode takes content is wrong")
	}
	for _, name := range append([]string{"tabpane", "nosuch"}, removedHugoShortcodes...) {
		if known.has(name) {
			t.Errorf("%s is known", name)
		}
	}
}

func TestKnownShortcodesWithoutThemeShortcodes(t *testing.T) {
	known, err := Known(fstest.MapFS{"layouts/all.html": {Data: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if !known.has("youtube") || known.has("hint") {
		t.Errorf("known = %v, want Hugo's only", known)
	}
}
