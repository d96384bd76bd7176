package site

import (
	"strings"
	"testing"
)

// Issue 15: aliases and url become redirects inside the repository's
// namespace: alias /about/ of repository gb is /docs/gb/about/, a relative
// alias is relative to the page's directory, and url is one more alias
// (the page stays at its file's path). One that leaves the namespace or
// takes another page's place is ignored with a warning.
func TestAliasesAndURLRedirectInsideTheRepository(t *testing.T) {
	res, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/_index.md":      "# Home\n",
		"content/gb/guide/setup.md": "---\ntitle: Setup\naliases: [/about/, old-setup/, ../../../escape/, /guide/]\nurl: /install/\n---\nSet it up.\n",
	}, "docs")
	for _, alias := range []string{"docs/gb/about/index.html", "docs/gb/guide/old-setup/index.html", "docs/gb/install/index.html"} {
		page, ok := tree[alias]
		if !ok || !strings.Contains(page, `http-equiv="refresh"`) || !strings.Contains(page, "/docs/gb/guide/setup/") {
			t.Errorf("%s: no redirect to the page (%v):\n%s", alias, ok, page)
		}
	}
	if page := tree["docs/gb/guide/setup/index.html"]; !strings.Contains(page, "Set it up.") {
		t.Error("the page itself moved away from its file's path")
	}
	for name := range tree {
		if !strings.HasPrefix(name, "docs/gb/") && strings.Contains(name, "escape") {
			t.Errorf("an alias left the namespace: %s", name)
		}
	}
	var problems []string
	for _, is := range res.Issues {
		if is.Code == IssueFrontMatterInvalid {
			problems = append(problems, is.Message)
		}
	}
	all := strings.Join(problems, "\n")
	if len(problems) != 2 || !strings.Contains(all, `"../../../escape/"`) || !strings.Contains(all, `"/guide/"`) {
		t.Errorf("problems:\n%s\nwant the escaping alias and the one on a directory's page", all)
	}
}
