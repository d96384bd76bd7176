package site

import (
	"strings"
	"testing"
)

// An mkdocs.yml that is not YAML is reported once, with its line, and the
// unit renders in its default order; one whose nav is not a list is
// reported too.
func TestUnreadableMkDocsConfigIsReportedOnce(t *testing.T) {
	for name, c := range map[string]struct{ config, want string }{
		"not yaml":       {"site_name: x\nnav:\n  - Home: index.md\n   - bad: [\n", "line"},
		"nav not a list": {"site_name: x\nnav: index.md\n", "mkdocs.yml line 2: nav is not a list"},
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := renderOneRepository(t, "mk", map[string]string{
				"content/mk/index.md":                  "# Home\n",
				"content/mk/setup.md":                  "# Setup\n",
				"content/mk/about.md":                  "# About\n",
				"content/mk/.docweave-repo/mkdocs.yml": c.config,
			})
			var found []Issue
			for _, is := range res.Issues {
				if is.Code == IssueToolConfigInvalid {
					found = append(found, is)
				}
			}
			if len(found) != 1 || found[0].Path != "mk/.docweave-repo/mkdocs.yml" || !strings.Contains(found[0].Message, c.want) {
				t.Fatalf("issues %v, want one %s naming %q", res.Issues, IssueToolConfigInvalid, c.want)
			}
		})
	}
}
