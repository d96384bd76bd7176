package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// TestXrefsThroughTheBuild builds two repositories whose pages link to
// each other by id, with --verify-links: a link by id whose id no page
// declares is XREF_UNRESOLVED on the linking repository with its file,
// line and the closest id, and the build exits 1; a link by id whose
// fragment the target page lacks is LINK_FRAGMENT_MISSING naming that
// page; link verification, which follows the redirect page of a link by
// id, finds the fragment the page has and reports the one it lacks.
func TestXrefsThroughTheBuild(t *testing.T) {
	dir := t.TempDir()
	orchard := gittest.NewRepo(t, map[string]string{
		"docs/_index.md": "---\ntitle: Orchard\n---\n# Orchard\n",
		"docs/pruning.md": strings.Join([]string{
			"---",
			"title: Pruning",
			"---",
			"# Pruning",
			"",
			"Sharpen [the shears](xref:shears-care#honing) first.",
			"",
			"Then follow [the ladder rules](xref:ladder-safty).",
			"",
			"The [oiling notes](xref:shears-care#oiling) are not written yet.",
			"",
		}, "\n"),
	})
	shed := gittest.NewRepo(t, map[string]string{
		"docs/_index.md":  "---\ntitle: Shed\n---\n# Shed\n",
		"docs/shears.md":  "---\nid: shears-care\ntitle: Shears\n---\n# Shears\n\n## Honing\n\nA whetstone.\n",
		"docs/ladders.md": "---\nid: ladder-safety\ntitle: Ladders\n---\n# Ladders\n\nThree points of contact.\n",
	})
	out := filepath.Join(dir, "site")
	cfg := filepath.Join(dir, "docweave.yaml")
	writeFile(t, cfg, fmt.Sprintf(`repositories:
  - {name: orchard, url: %q}
  - {name: shed, url: %q}
daemon:
  link_verification: {rate_limit_delay: 0s}
output: {directory: %s}
`, orchard.FileURL(), shed.FileURL(), out))
	gitConfig := "GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "gitconfig")
	res := run(t, dir, []string{gitConfig}, "build", "-c", cfg, "--log-format", "json", "--verify-links")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1 (an unresolved link by id)\n%s\n%s", res.code, res.stdout, lastLines(res.stderr, 20))
	}
	if !strings.Contains(res.stdout, "XREF_UNRESOLVED") {
		t.Errorf("the summary does not name XREF_UNRESOLVED:\n%s", res.stdout)
	}
	rep := readReport(t, out)
	if rep.Outcome != report.OutcomePartial || rep.BrokenLinkErrors < 1 {
		t.Errorf("outcome %s, broken_link_errors %d; want partial, at least 1", rep.Outcome, rep.BrokenLinkErrors)
	}
	var xref, fragments []report.Issue
	for _, is := range rep.Issues {
		switch is.Code {
		case report.CodeXrefUnresolved:
			xref = append(xref, is)
		case report.CodeLinkFragmentMissing:
			fragments = append(fragments, is)
		}
	}
	if len(xref) != 1 {
		t.Fatalf("XREF_UNRESOLVED issues: %+v, want one", xref)
	}
	if is := xref[0]; is.Severity != report.SeverityError || is.Repository != "orchard" || is.Path != "docs/pruning.md" ||
		is.Message != `line 8: link "xref:ladder-safty": no page of the site declares the id "ladder-safty" (did you mean ladder-safety?)` {
		t.Errorf("the unresolved link by id: %+v", is)
	}
	if len(fragments) != 1 || fragments[0].Repository != "orchard" || fragments[0].Path != "docs/pruning.md" ||
		!strings.HasPrefix(fragments[0].Message, `line 10: link "xref:shears-care#oiling": the page /docs/shed/shears`) {
		t.Errorf("LINK_FRAGMENT_MISSING issues: %+v, want the oiling notes on line 10", fragments)
	}
	if rep.Links == nil {
		t.Fatal("no link verification in the report")
	}
	var broken []string
	for _, b := range rep.Links.BrokenLinks {
		if strings.Contains(b.URL, "/_xref/") {
			broken = append(broken, b.URL)
		}
	}
	sort.Strings(broken)
	if strings.Join(broken, " ") != "/docs/_xref/ladder-safty/ /docs/_xref/shears-care/#oiling" {
		t.Errorf("broken links by id the verifier found: %v, want the id no page declares and the oiling notes", broken)
	}
}
