package site

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestRenderWholeWritesTemplateMetrics: with Options.TemplateMetrics, a
// render in one piece writes Hugo's table of template costs, one row per
// template the theme ran, with the number of executions; the HTML is the
// same as without it.
func TestRenderWholeWritesTemplateMetrics(t *testing.T) {
	var table bytes.Buffer
	opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	opts.TemplateMetrics = &table
	if _, err := RenderWhole(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	got := table.String()
	if !strings.Contains(got, "cumulative") {
		t.Fatalf("no metrics table:\n%s", got)
	}
	// A row: cumulative, average and longest duration, count, template.
	for _, tmpl := range []string{"page.html", "_partials/menu.html", "_markup/render-heading.html"} {
		row := regexp.MustCompile(`(?m)^\s*\S+\s+\S+\s+\S+\s+([1-9][0-9]*)\s+` + regexp.QuoteMeta(tmpl) + `$`)
		if !row.MatchString(got) {
			t.Errorf("no row with a count for %s:\n%s", tmpl, got)
		}
	}

	plain := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	if _, err := RenderWhole(context.Background(), plain); err != nil {
		t.Fatal(err)
	}
	page := "docs/alpha/guide/install/index.html"
	if readPublished(t, opts.PublishDir, page) != readPublished(t, plain.PublishDir, page) {
		t.Errorf("%s differs when templates are timed", page)
	}
}

// TestRenderInPartsWritesNoTemplateMetrics: a render in parts runs many
// Hugo builds, some at once, so it leaves the writer alone.
func TestRenderInPartsWritesNoTemplateMetrics(t *testing.T) {
	var table bytes.Buffer
	opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	opts.TemplateMetrics = &table
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if table.Len() != 0 {
		t.Fatalf("a render in parts wrote template metrics:\n%s", table.String())
	}
}
