package assemble

import (
	"context"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
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
