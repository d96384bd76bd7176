package pipeline

import (
	"context"
	"testing"

	"github.com/docweave/docweave/events"
)

// dropBuildsBefore passes on the messages of builds from its epoch on and
// of no build, and drops (handler not called, outcome dropped) those of
// builds before it.
func TestDropBuildsBeforeDropsOnlyOlderBuilds(t *testing.T) {
	for _, tc := range []struct {
		build   string
		dropped bool
	}{
		{"20261123t100000.000001-old", true},
		{"20261123t110000.000000-start", false},
		{"20261123t120000.000000-new", false},
		{"", false}, // undecodable: refused, not dropped
	} {
		called := false
		h := dropBuildsBefore("20261123t110000.000000-start")(func(context.Context, events.Event) ([]events.Event, error) {
			called = true
			return nil, nil
		})
		d := &delivery{Delivery: Delivery{BuildID: tc.build}, log: deliveryOf(context.Background()).log}
		if _, err := h(withDelivery(context.Background(), d), request("x")); err != nil {
			t.Fatal(err)
		}
		if called == tc.dropped || (d.Outcome == OutcomeDropped) != tc.dropped {
			t.Errorf("build %q: handler called %v, outcome %q; want dropped %v", tc.build, called, d.Outcome, tc.dropped)
		}
	}
}
