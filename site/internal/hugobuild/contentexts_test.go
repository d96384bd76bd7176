package hugobuild

import "testing"

func TestMarkdownExtensionsComeFromHugo(t *testing.T) {
	for _, name := range []string{"a.md", "b.MARKDOWN", "c.mdown"} {
		if !IsMarkdown(name) {
			t.Errorf("IsMarkdown(%q) = false", name)
		}
	}
	for _, name := range []string{"a.html", "b.adoc", "c.png", "md"} {
		if IsMarkdown(name) {
			t.Errorf("IsMarkdown(%q) = true", name)
		}
	}
	for _, ext := range []string{".html", ".htm", ".adoc", ".rst", ".pdc", ".org", ".gotmpl"} {
		found := false
		for _, e := range OtherContentExts {
			found = found || e == ext
		}
		if !found {
			t.Errorf("OtherContentExts lacks %s", ext)
		}
	}
}
