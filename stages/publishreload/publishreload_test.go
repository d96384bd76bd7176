package publishreload

import (
	"context"
	"testing"

	"github.com/docweave/docweave/events"
)

func TestAnnouncesOnlyPublishedSites(t *testing.T) {
	ok := &events.SiteRendered{Header: events.Header{ID: "x", BuildID: "b1"}, OK: true, Site: "sha256:s", Pages: 4}
	out, err := handle(context.Background(), ok)
	if err != nil || len(out) != 1 {
		t.Fatalf("%v %v", out, err)
	}
	pub := out[0].(*events.SitePublished)
	if pub.Site != "sha256:s" || pub.Pages != 4 || pub.BuildID != "b1" {
		t.Fatalf("%+v", pub)
	}
	failed := &events.SiteRendered{Header: events.Header{ID: "y", BuildID: "b2"}}
	if out, err := handle(context.Background(), failed); err != nil || len(out) != 0 {
		t.Fatalf("failed render announced: %v %v", out, err)
	}
}
