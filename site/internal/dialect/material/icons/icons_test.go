package icons

import (
	"strings"
	"testing"
)

func TestSVGOfEachSet(t *testing.T) {
	for _, code := range []string{"material-check", "octicons-file-code-16", "fontawesome-brands-github", "fontawesome-solid-house", "fontawesome-regular-bell", "simple-go"} {
		svg, ok := SVG(code, `aria-hidden="true"`)
		if !ok || !strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="`) || !strings.Contains(svg, `aria-hidden="true"`) || !strings.Contains(svg, "<path") {
			t.Errorf("SVG(%q) = %q, %v", code, svg, ok)
		}
	}
	for _, code := range []string{"material-no-such-icon", "smile", "material-"} {
		if _, ok := SVG(code, ""); ok {
			t.Errorf("SVG(%q) found an icon", code)
		}
	}
	if !IsIconCode("octicons-nothing-16") || IsIconCode("smile") {
		t.Error("IsIconCode tells set prefixes wrong")
	}
}
