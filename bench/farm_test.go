package bench

import (
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/bench/farm"
)

// newTestFarm generates and serves a small farm the way Run does.
func newTestFarm(t *testing.T, size Size) *sizeFarm {
	t.Helper()
	opts := QuickOptions()
	work := t.TempDir()
	f := &sizeFarm{opts: opts, size: size, work: work, contentPaths: map[string]string{}}
	links, err := farm.StartLinkServers(2, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(links.Close)
	f.links = links
	dir := filepath.Join(work, "repos")
	if f.repos, err = farm.Generate(farm.Spec{Dir: dir, Repos: size.Repos, Pages: size.Pages, LinkBases: links.Bases()}); err != nil {
		t.Fatal(err)
	}
	if f.git, err = farm.ServeGit(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.git.Close() })
	return f
}
