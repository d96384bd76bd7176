package verifylinks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/workspace"
)

// fetchRetryDelay is how long to wait before asking the store again for a
// site publishreload has not uploaded yet.
const fetchRetryDelay = 3 * time.Second

// siteFiles says where the rendered site of a build can be read: its
// public directory and the content directory it was rendered from (for
// naming source files), and whether they are this process's output
// directory (verifylinks beside render, which also writes the report).
//
// With a shared artifact store (build.artifact_store: broker) and an
// output directory that does not hold this build's site — verifylinks in a
// process of its own — the site and the repositories' trees are fetched
// from the store into the workspace; cleanup removes them. Without a
// shared store the output directory is the only place to look.
type siteFiles struct {
	public, content string
	local           bool
	cleanup         func()
}

func (s *stage) locateSite(ctx context.Context, in *events.SiteRendered) (siteFiles, error) {
	out := s.cfg.Output.Directory
	local := siteFiles{public: filepath.Join(out, "public"), content: filepath.Join(out, "content"), local: true, cleanup: func() {}}
	if s.store == nil || !artifact.IsShared(s.store) {
		return local, nil
	}
	if ref, _, err := artifact.HashDir(local.public); err == nil && string(ref) == in.Site {
		return local, nil
	}
	has, err := s.store.Has(ctx, artifact.Ref(in.Site))
	if err != nil {
		return siteFiles{}, fmt.Errorf("look up site %s: %w", in.Site, err)
	}
	if !has {
		// publishreload uploads the site right after the render; it may
		// not be there yet.
		return siteFiles{}, pipeline.Transient(fmt.Errorf("site %s of build %s is not in the artifact store yet", in.Site, in.BuildID), fetchRetryDelay)
	}
	dir := filepath.Join(workspace.For(s.cfg).Root, "verify", in.BuildID)
	fetched := siteFiles{public: filepath.Join(dir, "public"), content: filepath.Join(dir, "content"), cleanup: func() { _ = os.RemoveAll(dir) }}
	_ = os.RemoveAll(dir)
	if err := s.store.Materialize(ctx, artifact.Ref(in.Site), fetched.public); err != nil {
		fetched.cleanup()
		return siteFiles{}, fmt.Errorf("fetch site %s: %w", in.Site, err)
	}
	for _, o := range in.Outcomes {
		if o.Failed || o.Tree == "" {
			continue
		}
		dst := filepath.Join(fetched.content, filepath.FromSlash(o.ContentPath))
		err := s.store.Materialize(ctx, artifact.Ref(o.Tree), dst)
		if errors.Is(err, artifact.ErrNotFound) {
			continue // only source file names are lost
		}
		if err != nil {
			fetched.cleanup()
			return siteFiles{}, fmt.Errorf("fetch the documentation of %s: %w", o.Key(), err)
		}
	}
	return fetched, nil
}
