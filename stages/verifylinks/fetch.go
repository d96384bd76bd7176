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
// public directory and the documentation trees it was rendered from (for
// naming source files, laid out from the artifact store below the
// workspace).
//
// With a shared artifact store (build.artifact_store: broker) and an
// output directory that does not hold this build's site — verifylinks in a
// process of its own — the site and the repositories' trees are fetched
// from the store into the workspace; cleanup removes them. Without a
// shared store the output directory is the only place to look.
type siteFiles struct {
	public, content string
	cleanup         func()
}

func (s *stage) locateSite(ctx context.Context, in *events.SiteRendered, outcomes []events.RepoOutcome) (siteFiles, error) {
	out := s.cfg.Output.Directory
	dir := filepath.Join(workspace.For(s.cfg).Root, "verify", in.BuildID)
	local := siteFiles{public: filepath.Join(out, "public"), content: filepath.Join(dir, "content"),
		cleanup: func() { _ = os.RemoveAll(dir) }}
	if s.store == nil {
		local.content = ""
		return local, nil
	}
	if !artifact.IsShared(s.store) {
		return local, s.fetchTrees(ctx, outcomes, local)
	}
	if ref, _, err := artifact.HashDir(local.public); err == nil && string(ref) == in.Site {
		return local, s.fetchTrees(ctx, outcomes, local)
	}
	has, err := s.store.Has(ctx, artifact.Ref(in.Site))
	if err != nil {
		return siteFiles{}, fmt.Errorf("look up site %s: %w", in.Site, err)
	}
	if !has {
		// assemble uploads the site before it announces it, so this is
		// rare (a store still settling, say): try again shortly.
		return siteFiles{}, pipeline.Transient(fmt.Errorf("site %s of build %s is not in the artifact store yet", in.Site, in.BuildID), fetchRetryDelay)
	}
	fetched := siteFiles{public: filepath.Join(dir, "public"), content: filepath.Join(dir, "content"), cleanup: func() { _ = os.RemoveAll(dir) }}
	_ = os.RemoveAll(dir)
	if err := s.store.Materialize(ctx, artifact.Ref(in.Site), fetched.public); err != nil {
		fetched.cleanup()
		return siteFiles{}, fmt.Errorf("fetch site %s: %w", in.Site, err)
	}
	return fetched, s.fetchTrees(ctx, outcomes, fetched)
}

// fetchTrees lays the build's documentation trees out under files.content
// (hard links from a local store), for naming the source file of each
// page: the site is rendered in parts, from trees in the store, so no
// output directory holds them.
func (s *stage) fetchTrees(ctx context.Context, outcomes []events.RepoOutcome, files siteFiles) error {
	_ = os.RemoveAll(files.content)
	for _, o := range outcomes {
		if o.Failed || o.Tree == "" {
			continue
		}
		dst := filepath.Join(files.content, filepath.FromSlash(o.ContentPath))
		err := s.store.Materialize(ctx, artifact.Ref(o.Tree), dst)
		if errors.Is(err, artifact.ErrNotFound) {
			continue // only source file names are lost
		}
		if err != nil {
			files.cleanup()
			return fmt.Errorf("fetch the documentation of %s: %w", o.Key(), err)
		}
	}
	return nil
}
