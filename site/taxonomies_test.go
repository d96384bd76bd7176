package site

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Dropping every taxonomy (generator.taxonomies with each default given an
// empty value leaves an empty, non-nil map) renders no taxonomy or term
// pages — it does not bring the defaults back.
func TestNoTaxonomiesWhenEveryOneIsDropped(t *testing.T) {
	var logs bytes.Buffer
	opts := fixtureOptions(t, newFixtureProject(t), &logs)
	opts.Generator.Taxonomies = map[string]string{}
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatalf("render: %v\n%s", err, logs.String())
	}
	for _, dir := range []string{"tags", "categories", "teams"} {
		if _, err := os.Stat(filepath.Join(opts.PublishDir, dir)); !os.IsNotExist(err) {
			t.Errorf("%s/ was published with every taxonomy dropped: %v", dir, err)
		}
	}
	if _, err := os.Stat(filepath.Join(opts.PublishDir, "index.html")); err != nil {
		t.Fatalf("no home page: %v", err)
	}
}
