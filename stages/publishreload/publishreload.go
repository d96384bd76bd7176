// Package publishreload is the stage that announces a published site: after
// every successful render it sends site.published, which the daemon's
// live-reload server turns into a reload event for open browsers (the
// original builder never did this in daemon mode) and which docs servers in
// other processes use to switch to the new site.
package publishreload

import (
	"context"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
)

// Name is the stage name.
const Name = "publishreload"

func init() { pipeline.Register(Name, New) }

// New builds the stage.
func New(pipeline.Deps) (pipeline.Stage, error) {
	return pipeline.Stage{Name: Name, Subjects: []string{events.SubjectSiteRendered}, Handle: handle}, nil
}

func handle(_ context.Context, ev events.Event) ([]events.Event, error) {
	in, ok := ev.(*events.SiteRendered)
	if !ok {
		return nil, pipeline.Permanentf("publishreload: unexpected %T", ev)
	}
	if !in.OK {
		return nil, nil // nothing new is live; the last good site stays
	}
	return []events.Event{&events.SitePublished{
		Header: events.Header{ID: "site.published:" + in.BuildID, BuildID: in.BuildID},
		Site:   in.Site,
		Pages:  in.Pages,
	}}, nil
}
