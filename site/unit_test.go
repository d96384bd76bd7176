package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

// renderFixtureUnit renders one unit of the fixture project into a fresh
// publish directory and returns it with the unit's facts.
func renderFixtureUnit(t *testing.T, unit string) (string, UnitResult) {
	t.Helper()
	project := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(filepath.Join(project, "content", unit), os.DirFS(filepath.Join("testdata", "project", "content", unit))); err != nil {
		t.Error(err)
		return "", UnitResult{}
	}
	publish := filepath.Join(t.TempDir(), "public")
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Repositories: fixtureRepos, Unit: unit, Logger: zerolog.Nop()})
	if err != nil {
		t.Error(err)
	}
	return publish, res
}

// TestUnitsRenderSideBySide: units rendered at the same time in one
// process (as a render replica with build.render_concurrency above 1
// does) publish what each publishes alone.
func TestUnitsRenderSideBySide(t *testing.T) {
	want := map[string]siteDigest{}
	for _, unit := range []string{"alpha", "beta"} {
		dir, _ := renderFixtureUnit(t, unit)
		want[unit] = digestSite(t, dir)
	}
	var wg sync.WaitGroup
	got := make([]siteDigest, 6)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir, _ := renderFixtureUnit(t, []string{"alpha", "beta"}[i%2])
			got[i] = digestSite(t, dir)
		}()
	}
	wg.Wait()
	for i, g := range got {
		unit := []string{"alpha", "beta"}[i%2]
		if fmt.Sprint(g) != fmt.Sprint(want[unit]) {
			t.Errorf("render %d of %s side by side differs from its render alone", i, unit)
		}
	}
}

func TestRenderUnitRefusesAnotherUnitsContent(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	for _, unit := range []string{"alpha", "beta"} {
		if err := os.CopyFS(filepath.Join(project, "content", unit), os.DirFS(filepath.Join("testdata", "project", "content", unit))); err != nil {
			t.Fatal(err)
		}
	}
	_, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: filepath.Join(t.TempDir(), "p"),
		Generator: fixtureGenerator(), Repositories: fixtureRepos, Unit: "alpha", Logger: zerolog.Nop()})
	if err == nil {
		t.Fatal("a project holding two units rendered as one")
	}
	_, err = RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: filepath.Join(t.TempDir(), "p"),
		Generator: fixtureGenerator(), Repositories: fixtureRepos, Unit: "gamma", Logger: zerolog.Nop()})
	if err == nil {
		t.Fatal("a unit no repository has was rendered")
	}
}
