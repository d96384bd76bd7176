package assemble

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

// sharedStore is a local store that says it is shared (as the broker's
// object store is), so the upload runs without a broker.
type sharedStore struct{ *artifact.Local }

func (sharedStore) Shared() bool { return true }

// With a shared store, the assembly puts the site into it before it goes
// live: any publishreload replica may then announce it, and docs servers
// anywhere fetch the very site that was assembled.
func TestTheAssemblyUploadsTheSiteToASharedStore(t *testing.T) {
	f := newFixtureWith(t, func(l *artifact.Local) artifact.Store { return sharedStore{l} })
	tree := f.tree(t, map[string]string{"guide.md": "# Guide\n\nShared.\n"})
	res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree}))
	if !res.OK {
		t.Fatalf("%+v", res)
	}
	if has, err := f.store.Has(context.Background(), artifact.Ref(res.Site)); err != nil || !has {
		t.Fatalf("the published site %s is not in the shared store (%v)", res.Site, err)
	}
	public, _, err := artifact.HashDir(f.out + "/public")
	if err != nil || string(public) != res.Site {
		t.Fatalf("public holds %s, the message says %s (%v)", public, res.Site, err)
	}
}

// A build the daemon gave up on (STAGE_UNAVAILABLE) whose work resumes
// when the stage returns is not published: its site.rendered says so and
// the output directory keeps no site of it.
func TestAnAbandonedBuildIsNotPublished(t *testing.T) {
	f := newFixture(t)
	if err := f.builds.Abandon(context.Background(), "b1", "STAGE_UNAVAILABLE: no process ran stage assemble"); err != nil {
		t.Fatal(err)
	}
	tree := f.tree(t, map[string]string{"guide.md": "# Guide\n"})
	res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree}))
	if res.OK || len(res.Issues) != 1 || res.Issues[0].Code != report.CodeRenderFailed || !strings.Contains(res.Issues[0].Message, "abandoned") {
		t.Fatalf("an abandoned build: ok %v, issues %+v", res.OK, res.Issues)
	}
	if _, err := os.Stat(f.out + "/public"); !os.IsNotExist(err) {
		t.Fatalf("the abandoned build's site is in the output directory: %v", err)
	}
}
