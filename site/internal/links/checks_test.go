package links

import (
	"fmt"
	"strings"
	"testing"
)

// Resolve hands on, with their lines, the links whose fragments only the
// rendered pages can settle: a place on the page itself, and a fragment
// of a page or a directory's page of the unit, percent-decoded; a file's
// fragment, an image's and a link without one are not checked, and each
// destination is handed on once.
func TestResolveHandsOnTheFragmentsToCheckWithTheirLines(t *testing.T) {
	u := Unit{Root: "r", Pages: map[string]bool{"r/a.md": true, "r/b.md": true, "r/d/README.md": true},
		Files: map[string]bool{"r/f.pdf": true, "r/i.png": true}, Dirs: map[string]bool{"r/d": true}}
	body := strings.Join([]string{
		"[here](#start) and [there](b.md#caf%C3%A9)",
		"[plain](b.md) [file](f.pdf#page=2) ![img](i.png#x)",
		"[folder](d/#intro) and [again](#start)",
		"[elsewhere](https://example.org/#x)",
	}, "\n")
	_, _, checks := Resolve("r/a.md", []byte(body), 3, u)
	var got []string
	for _, c := range checks {
		got = append(got, fmt.Sprintf("%d %s → %s #%s", c.Line, c.Dest, c.Target, c.Fragment))
	}
	want := []string{
		"4 #start → r/a.md #start",
		"4 b.md#caf%C3%A9 → r/b.md #café",
		"6 d/#intro → r/d/README.md #intro",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
