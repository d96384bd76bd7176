package verifylinks

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// putDir stores a directory's files as a tree in the store.
func putDir(t *testing.T, store artifact.Store, dir string) artifact.Ref {
	t.Helper()
	var files []artifact.File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, artifact.File{Rel: filepath.ToSlash(rel), Source: p})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := store.PutTree(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// sharedStoreHarness is the stage with the broker's object store as its
// artifact store (build.artifact_store: broker) and a workspace of its own.
func sharedStoreHarness(t *testing.T) (*harness, *artifact.Objects) {
	t.Helper()
	var store *artifact.Objects
	h := newHarnessWith(t, func(c *config.Config) { c.Build.WorkspaceDir = t.TempDir() }, func(b *natsbroker.Broker, d *pipeline.Deps) {
		var err error
		if store, err = artifact.OpenObjects(context.Background(), b.JS, 1); err != nil {
			t.Fatal(err)
		}
		d.Store = store
	})
	return h, store
}

// verifylinks in a process of its own: its output directory holds no site,
// so it fetches the site and the repositories' trees from the shared store
// (retrying while the site is not uploaded yet), names source files from
// the trees, leaves no copy behind and does not look for a report file.
func TestVerifiesASiteFetchedFromTheSharedStore(t *testing.T) {
	h, store := sharedStoreHarness(t)
	// The harness wrote the site into the output directory; move it out,
	// as if render ran on another machine.
	elsewhere := t.TempDir()
	if err := os.Rename(filepath.Join(h.cfg.Output.Directory, "public"), filepath.Join(elsewhere, "public")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, filepath.Join(elsewhere, "content", "handbook"), map[string]string{"_index.md": "", "guide.md": ""})
	siteRef := putDir(t, store, filepath.Join(elsewhere, "public"))
	in := h.renderedFrom("b1", string(putDir(t, store, filepath.Join(elsewhere, "content", "handbook"))))
	in.Site = string(siteRef)

	h.publish(in)
	if v := h.verified("b1"); v == nil || v.Broken == 0 {
		t.Fatalf("no verification of the fetched site: %+v", v)
	}
	var withSource int
	for _, ev := range h.brokenEvents() {
		if ev.SourceFile != "" {
			withSource++
		}
	}
	if withSource == 0 {
		t.Fatal("no broken-link event names its source file: the trees were not fetched")
	}
	if entries, _ := os.ReadDir(filepath.Join(h.cfg.Build.WorkspaceDir, "verify")); len(entries) != 0 {
		t.Fatalf("fetched copies left behind: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(h.cfg.Output.Directory, "build-report.json")); !os.IsNotExist(err) {
		t.Fatalf("a report file appeared where no build wrote one: %v", err)
	}
}

// A site not in the store yet is a transient failure (publishreload has
// not uploaded it), retried shortly — not a verification of nothing.
func TestSiteNotYetUploadedIsRetried(t *testing.T) {
	h, _ := sharedStoreHarness(t)
	in := h.rendered("b2")
	in.Site = "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	_, err := h.stage.locateSite(context.Background(), in, nil)
	var transient *pipeline.TransientError
	if !errors.As(err, &transient) || transient.Delay != fetchRetryDelay {
		t.Fatalf("missing site: %v, want a transient error retried after %s", err, fetchRetryDelay)
	}
}
