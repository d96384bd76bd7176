package publishreload

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
)

func newStage(t *testing.T, store artifact.Store) (pipeline.Stage, string) {
	t.Helper()
	cfg := config.Default()
	cfg.Output.Directory = t.TempDir()
	st, err := New(pipeline.Deps{Config: &cfg, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	return st, cfg.Output.Directory
}

func TestAnnouncesOnlyPublishedSites(t *testing.T) {
	local, _ := artifact.NewLocal(t.TempDir())
	st, _ := newStage(t, local)
	ok := &events.SiteRendered{Header: events.Header{ID: "x", BuildID: "b1"}, OK: true, Site: "sha256:s", Pages: 4}
	out, err := st.Handle(context.Background(), ok)
	if err != nil || len(out) != 1 {
		t.Fatalf("%v %v", out, err)
	}
	pub := out[0].(*events.SitePublished)
	if pub.Site != "sha256:s" || pub.Pages != 4 || pub.BuildID != "b1" {
		t.Fatalf("%+v", pub)
	}
	failed := &events.SiteRendered{Header: events.Header{ID: "y", BuildID: "b2"}}
	if out, err := st.Handle(context.Background(), failed); err != nil || len(out) != 0 {
		t.Fatalf("failed render announced: %v %v", out, err)
	}
}

// sharedStore is a local store that claims to be shared, so the upload
// path runs without a broker; the broker store itself is tested in
// pipeline/artifact.
type sharedStore struct{ *artifact.Local }

func (sharedStore) Shared() bool { return true }

func TestUploadsTheSiteToASharedStore(t *testing.T) {
	local, _ := artifact.NewLocal(t.TempDir())
	store := sharedStore{local}
	st, out := newStage(t, store)
	public := filepath.Join(out, "public")
	os.MkdirAll(filepath.Join(public, "docs"), 0o755)
	os.WriteFile(filepath.Join(public, "index.html"), []byte("<h1>home</h1>"), 0o644)
	os.WriteFile(filepath.Join(public, "docs", "a.html"), []byte("a"), 0o644)
	ref, _, err := artifact.HashDir(public)
	if err != nil {
		t.Fatal(err)
	}
	ev := &events.SiteRendered{Header: events.Header{ID: "x", BuildID: "b1"}, OK: true, Site: string(ref)}
	if _, err := st.Handle(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if has, _ := store.Has(context.Background(), ref); !has {
		t.Fatal("the site was not uploaded")
	}
	// A site that no longer matches the announcement is refused for good.
	os.WriteFile(filepath.Join(public, "index.html"), []byte("newer"), 0o644)
	if _, err := st.Handle(context.Background(), ev); !pipeline.IsPermanent(err) {
		t.Fatalf("stale announcement: %v", err)
	}
}
