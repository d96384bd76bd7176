package metrics

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/docweave/docweave/report"
)

func TestObserveBuildCountsUnitRenders(t *testing.T) {
	m := New()
	m.ObserveBuild(report.Report{
		Outcome: report.OutcomePartial, StaticRendered: true,
		Units: &report.UnitCounts{Rendered: 1, Reused: 2, Failed: 1, Stale: 1},
		Repositories: []report.Repository{
			{Name: "a", Render: &report.UnitRender{Outcome: report.RenderRendered, DurationMS: 800}},
			{Name: "b", Render: &report.UnitRender{Outcome: report.RenderReused, DurationMS: 2}},
			{Name: "c", Render: &report.UnitRender{Outcome: report.RenderReused, DurationMS: 3}},
			{Name: "d", Render: &report.UnitRender{Outcome: report.RenderFailed, Stale: true, DurationMS: 40}},
			{Name: "e"}, // not rendered: its clone failed
		},
	})
	want := `
# HELP docweave_unit_renders_total Renders of units (repositories, or versions of them) in finished builds, by outcome: rendered, reused (the output was stored under its content address), failed.
# TYPE docweave_unit_renders_total counter
docweave_unit_renders_total{outcome="failed"} 1
docweave_unit_renders_total{outcome="rendered"} 1
docweave_unit_renders_total{outcome="reused"} 2
# HELP docweave_stale_units Units whose render failed in the most recent finished build and whose last good pages are on the site.
# TYPE docweave_stale_units gauge
docweave_stale_units 1
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "docweave_unit_renders_total", "docweave_stale_units"); err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(m.units.duration); n != 3 {
		t.Fatalf("%d duration series, want one per outcome", n)
	}
}
