package site

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestRenderWholeMinimalRendersTheSamePagesWithOneLineTemplates: the
// floor renders every page of the fixture, each page's HTML is the one
// line with its content and nothing of the theme around it.
func TestRenderWholeMinimalRendersTheSamePagesWithOneLineTemplates(t *testing.T) {
	full := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	fullRes, err := RenderWhole(context.Background(), full)
	if err != nil {
		t.Fatal(err)
	}
	minimal := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	res, err := RenderWholeMinimal(context.Background(), minimal)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages != fullRes.Pages {
		t.Fatalf("minimal render: %d pages, the theme's %d", res.Pages, fullRes.Pages)
	}
	page := readPublished(t, minimal.PublishDir, "docs/alpha/guide/install/index.html")
	if !strings.HasPrefix(page, "<!DOCTYPE html><title>Installing Alpha</title>") || strings.Contains(page, "dw-menu") || !strings.Contains(page, "Run the installer") {
		t.Fatalf("minimal page:\n%s", page)
	}
}
