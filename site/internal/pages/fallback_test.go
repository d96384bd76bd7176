package pages

import (
	"strings"
	"testing"
)

func TestPageFallbackGoesStepByStep(t *testing.T) {
	page := []byte("{\"title\":\"T\"}\nA {{< one >}}\nB {{< two >}}x{{< /two >}}\n")
	var fb pageFallback
	step, ok := fb.next(page, 2)
	if !ok || string(step.page) != "{\"title\":\"T\"}\nA {{</* one */>}}\nB {{< two >}}x{{< /two >}}\n" || step.line != 2 {
		t.Fatalf("step 1 = %q line %d", step.page, step.line)
	}
	// The same line named again: every tag.
	step, ok = fb.next(step.page, 2)
	if !ok || string(step.page) != "{\"title\":\"T\"}\nA {{</* one */>}}\nB {{</* two */>}}x{{</* /two */>}}\n" || step.line != 3 ||
		!strings.Contains(step.construct, "every shortcode tag of the page (2") {
		t.Fatalf("step 2 = %q line %d %s", step.page, step.line, step.construct)
	}
	step, ok = fb.next(step.page, 0)
	if want := "{\"title\":\"T\"}\n```text\nA {{</* one */>}}\nB {{</* two */>}}x{{</* /two */>}}\n```\n"; !ok || string(step.page) != want || step.line != 2 {
		t.Fatalf("step 3 = %q line %d, want %q", step.page, step.line, want)
	}
	if _, ok := fb.next(step.page, 0); ok {
		t.Error("a step after the code block")
	}
}

func TestBodyAsCodeFencesLongerThanTheBodys(t *testing.T) {
	got, line := bodyAsCode([]byte("````go\nx\n````"))
	if string(got) != "`````text\n````go\nx\n````\n`````\n" || line != 1 {
		t.Errorf("bodyAsCode = %q, %d", got, line)
	}
}

func TestNamedLine(t *testing.T) {
	msg := `"/p/pages/r/a.md:12:5": failed; "/p/content/r/b.md:3:1": other`
	if namedLine(msg, "/p/pages/r/a.md") != 12 || namedLine(msg, "/p/pages/r/b.md", "/p/content/r/b.md") != 3 ||
		namedLine(msg, "/p/pages/a.md") != 0 || namedLine(msg, "/a.md") != 0 || namedLine(msg, "/p/pages/r/c.md") != 0 {
		t.Error("namedLine does not find the line of the file")
	}
}
