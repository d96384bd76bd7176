// Package publishreload is the stage that announces a published site: after
// every successful render it sends site.published, which the daemon's
// live-reload server turns into a reload event for open browsers (the
// original builder never did this in daemon mode) and which docs servers in
// other processes use to switch to the new site. With a shared artifact
// store (build.artifact_store: broker) it first uploads the site, so those
// docs servers can fetch it by its hash; it therefore runs beside assemble.
package publishreload

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/stages"
)

// Name is the stage name.
const Name = stages.PublishReload

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(d pipeline.Deps) (pipeline.Stage, error) {
	s := &stage{cfg: d.Config, store: d.Store}
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectSiteRendered}, Handle: pipeline.On(Name, s.handle),
		Publishes: []string{events.SubjectSitePublished}}, nil
}

type stage struct {
	cfg   *config.Config
	store artifact.Store
}

func (s *stage) handle(ctx context.Context, in *events.SiteRendered) ([]events.Event, error) {
	if !in.OK {
		return nil, nil // nothing new is live; the last good site stays
	}
	if s.store != nil && artifact.IsShared(s.store) {
		if err := s.upload(ctx, in.Site); err != nil {
			return nil, err
		}
	}
	return []events.Event{&events.SitePublished{
		Header: events.Header{ID: "site.published:" + in.BuildID, BuildID: in.BuildID},
		Site:   in.Site,
		Pages:  in.Pages,
	}}, nil
}

// upload puts <output.directory>/public into the shared store. The tree's
// hash must be the one render announced; if the directory changed since
// (a newer build swapped it in), this message is out of date.
func (s *stage) upload(ctx context.Context, want string) error {
	public := filepath.Join(s.cfg.Output.Directory, "public")
	files, err := artifact.ListDir(public)
	if err != nil {
		return pipeline.Permanentf("publish: read %s (run publishreload beside assemble): %v", public, err)
	}
	ref, err := s.store.PutTree(ctx, files)
	if err != nil {
		return fmt.Errorf("publish site: %w", err)
	}
	if string(ref) != want {
		return pipeline.Permanentf("publish: %s holds site %s, not the rendered %s (a newer build replaced it)", public, ref, want)
	}
	return nil
}
