// Package publishreload is the stage that announces a published site: after
// every successful render it sends site.published, which the daemon's
// live-reload server turns into a reload event for open browsers and which
// docs servers in other processes use to switch to the new site, fetching
// it from the shared store by its hash. The assembly put the site there
// before it went live, so any replica, in any process, may announce it.
package publishreload

import (
	"context"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/stages"
)

// Name is the stage name.
const Name = stages.PublishReload

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(pipeline.Deps) (pipeline.Stage, error) {
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectSiteRendered}, Handle: pipeline.On(Name, handle),
		Publishes: []string{events.SubjectSitePublished}}, nil
}

func handle(_ context.Context, in *events.SiteRendered) ([]events.Event, error) {
	if !in.OK {
		return nil, nil // nothing new is live; the last good site stays
	}
	return []events.Event{&events.SitePublished{
		Header: events.Header{ID: "site.published:" + in.BuildID, BuildID: in.BuildID},
		Site:   in.Site,
		Pages:  in.Pages,
	}}, nil
}
