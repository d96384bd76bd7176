package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

type fixture struct {
	stage pipeline.Stage
	store *artifact.Local
	out   string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Generator.Title = "Render test"
	st, err := New(pipeline.Deps{Config: &cfg, Store: store, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{stage: st, store: store, out: cfg.Output.Directory}
}

// tree stores files (path → content) as a documentation tree.
func (f fixture) tree(t *testing.T, files map[string]string) string {
	t.Helper()
	src := t.TempDir()
	var list []artifact.File
	for rel, content := range files {
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		list = append(list, artifact.File{Rel: rel, Source: p})
	}
	ref, err := f.store.PutTree(context.Background(), list)
	if err != nil {
		t.Fatal(err)
	}
	return string(ref)
}

func ready(build string, outcomes ...events.RepoOutcome) *events.ContentReady {
	return &events.ContentReady{Header: events.Header{ID: "r:" + build, BuildID: build}, Outcomes: outcomes}
}

func (f fixture) render(t *testing.T, ev *events.ContentReady) *events.SiteRendered {
	t.Helper()
	out, err := f.stage.Handle(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	return out[0].(*events.SiteRendered)
}

func TestRenderPublishesAndAFailedRenderKeepsTheLastGoodSite(t *testing.T) {
	f := newFixture(t)
	good := f.tree(t, map[string]string{"guide.md": "---\ntitle: Guide\n---\nFirst version.\n"})
	res := f.render(t, ready("b1",
		events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: good},
		events.RepoOutcome{Repository: "broken", ContentPath: "broken", Failed: true}))
	if !res.OK || res.Pages != 1 || !strings.HasPrefix(res.Site, "sha256:") {
		t.Fatalf("first render %+v", res)
	}
	page := filepath.Join(f.out, "public", "docs", "api", "guide", "index.html")
	if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), "First version.") {
		t.Fatalf("published page: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.out, "content", "broken")); !os.IsNotExist(err) {
		t.Fatal("a failed repository got a content directory")
	}

	// A page Hugo cannot render fails the whole render: the old site stays.
	bad := f.tree(t, map[string]string{"guide.md": "---\ntitle: Guide\n---\nSecond version {{< shortcode-that-does-not-exist >}}.\n"})
	res = f.render(t, ready("b2", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: bad}))
	if res.OK || len(res.Issues) == 0 || res.Issues[0].Code != report.CodeRenderFailed {
		t.Fatalf("broken render reported %+v", res)
	}
	if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), "First version.") {
		t.Fatalf("the last good site was replaced: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(f.out, ".public-*"))
	if len(leftovers) != 0 {
		t.Fatalf("staging directories left behind: %v", leftovers)
	}
}

func TestRenderWithNoSuccessfulRepositoryRendersNothing(t *testing.T) {
	f := newFixture(t)
	res := f.render(t, ready("b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Failed: true}))
	if res.OK || res.Issues[0].Code != report.CodeRenderFailed {
		t.Fatalf("got %+v", res)
	}
	if _, err := os.Stat(filepath.Join(f.out, "public")); !os.IsNotExist(err) {
		t.Fatal("a site was published without any documentation")
	}
}

func TestLiveReloadPortReachesTheThemeOnlyInDaemonMode(t *testing.T) {
	cfg := config.Default()
	cfg.Generator.Params = map[string]any{"themeVariant": "dark"}
	if _, ok := generatorFor(&cfg).Params[LiveReloadParam]; ok {
		t.Fatal("direct builds must not carry a live-reload port")
	}
	cfg.Mode = config.ModeDaemon
	g := generatorFor(&cfg)
	if g.Params[LiveReloadParam] != 8083 || g.Params["themeVariant"] != "dark" {
		t.Fatalf("params %v", g.Params)
	}
	if _, ok := cfg.Generator.Params[LiveReloadParam]; ok {
		t.Fatal("the configuration's own params were modified")
	}
}
