package publishreload

import (
	"context"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
)

// TestAnnouncesOnlyPublishedSites: the stage needs nothing of its process
// (no output directory, no store): any replica announces any build's site.
func TestAnnouncesOnlyPublishedSites(t *testing.T) {
	st, err := New(pipeline.Deps{})
	if err != nil {
		t.Fatal(err)
	}
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
