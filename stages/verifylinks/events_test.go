package verifylinks

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/linkcheck"
)

func TestBrokenLinkIDIsStablePerBuildPageAndTarget(t *testing.T) {
	a := brokenLinkID("b1", "docs/a/index.html", "external https://x/")
	if a != brokenLinkID("b1", "docs/a/index.html", "external https://x/") {
		t.Fatal("the same broken link got two IDs: a redelivery would duplicate its event")
	}
	for _, other := range []string{
		brokenLinkID("b2", "docs/a/index.html", "external https://x/"),
		brokenLinkID("b1", "docs/b/index.html", "external https://x/"),
		brokenLinkID("b1", "docs/a/index.html", "external https://y/"),
	} {
		if other == a {
			t.Fatal("different broken links share an ID")
		}
	}
	if !strings.HasPrefix(a, "links.broken:b1:") {
		t.Fatalf("id %q", a)
	}
}

func TestBrokenLinkEventsCarryTheConfiguredSubject(t *testing.T) {
	tr := &linkcheck.TargetResult{
		Target:  linkcheck.Target{Kind: linkcheck.KindInternal, URL: "/docs/x/#y"},
		Verdict: linkcheck.Verdict{Status: linkcheck.StatusBroken, Reason: linkcheck.ReasonMissingFragment, Error: "no id"},
	}
	res := &linkcheck.Result{Broken: []linkcheck.Occurrence{{Target: tr, Page: linkcheck.PageRef{File: "docs/x/index.html", URL: "/docs/x/"}, Element: "a[href]"}}}
	evs := brokenLinkEvents(rendered("b1"), res, "ops.links")
	if len(evs) != 1 || evs[0].Subject() != "ops.links" {
		t.Fatalf("events %+v", evs)
	}
}
