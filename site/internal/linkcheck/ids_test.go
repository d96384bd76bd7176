package linkcheck

import (
	"strings"
	"testing"
)

// The ids a fragment may name are read from the page's <main>: id
// attributes of any element and the names of anchors, each once, in the
// page's order; the frame's ids outside <main> are not the page's.
func TestIDsAreReadFromThePagesMainElement(t *testing.T) {
	page := `<html><body><nav id="menu"><a name="frame-anchor">x</a></nav>
<main id="content"><h2 id="first-step">First</h2><p>text id="not-an-id"</p>
<a name="old-style"></a><div class=tab id=unquoted></div><h2 id="first-step">again</h2>
<span name="not-an-anchor"></span></main><footer id="foot"></footer></body></html>`
	got := strings.Join(IDs([]byte(page)), " ")
	if want := "content first-step old-style unquoted"; got != want {
		t.Errorf("IDs = %q, want %q", got, want)
	}
}
