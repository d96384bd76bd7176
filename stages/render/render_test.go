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
	cfg   *config.Config // the stage's configuration; tests may change it
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
	return fixture{stage: st, store: store, out: cfg.Output.Directory, cfg: &cfg}
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

	// A render that fails as a whole (here: every page of the site fails,
	// which points at something other than the pages) publishes nothing:
	// the old site stays.
	bad := f.tree(t, map[string]string{"guide.md": "---\ntitle: Guide\n---\nSecond version {{< param nosuch >}}.\n"})
	res = f.render(t, ready("b2", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: bad}))
	if res.OK || len(res.Issues) == 0 || res.Issues[0].Code != report.CodeRenderFailed || res.Issues[0].Severity != report.SeverityError {
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

func TestRenderFailureOfTheSiteSettingsKeepsTheLastGoodSite(t *testing.T) {
	f := newFixture(t)
	good := f.tree(t, map[string]string{"guide.md": "# Guide\n\nFirst version.\n"})
	if res := f.render(t, ready("b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: good})); !res.OK {
		t.Fatalf("first render %+v", res)
	}
	// Settings the site refuses (a configuration loaded without validation).
	f.cfg.Generator.Params = map[string]any{"themeVariant": "neon"}
	res := f.render(t, ready("b2", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: good}))
	if res.OK || res.Issues[0].Code != report.CodeRenderFailed || !strings.Contains(res.Issues[0].Message, "themeVariant") {
		t.Fatalf("render with bad settings reported %+v", res)
	}
	if _, err := os.Stat(filepath.Join(f.out, "public", "docs", "api", "guide", "index.html")); err != nil {
		t.Fatalf("the last good site is gone: %v", err)
	}
}

func TestRenderRecordsPageProblemsAndPublishesTheRest(t *testing.T) {
	f := newFixture(t)
	f.cfg.Repositories = []config.Repository{{Name: "api", URL: "https://x-access-token:s3cret@github.com/example/api.git", Paths: []string{"docs/"}}}
	tree := f.tree(t, map[string]string{
		"guide.md":   "---\ntitle: Guide\n---\nNew version {{< shortcode-that-does-not-exist >}}.\n",
		"broken.md":  "# Broken\n\n{{< param nosuch >}}\n",
		"ok/page.md": "# Fine\n",
	})
	res := f.render(t, ready("b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Branch: "main", Tree: tree}))
	if !res.OK || res.Pages != 2 {
		t.Fatalf("render with page problems: %+v", res)
	}
	want := map[string]string{"docs/guide.md": report.CodeUnknownShortcode, "docs/broken.md": report.CodePageRenderFailed}
	if len(res.Issues) != len(want) {
		t.Fatalf("issues = %+v, want %d", res.Issues, len(want))
	}
	for _, is := range res.Issues {
		if want[is.Path] != is.Code || is.Repository != "api" || is.Severity != report.SeverityWarning || is.Stage != Name || is.Message == "" {
			t.Errorf("issue %+v, want a %s warning of the render stage naming api and the file in the repository", is, want[is.Path])
		}
	}
	page, err := os.ReadFile(filepath.Join(f.out, "public", "docs", "api", "guide", "index.html"))
	if err != nil || !strings.Contains(string(page), "New version .") {
		t.Fatalf("the page with an unknown shortcode was not published: %v", err)
	}
	// The edit link comes from the clone URL, without its credentials.
	if !strings.Contains(string(page), `href="https://github.com/example/api/edit/main/docs/guide.md"`) {
		t.Errorf("page lacks its edit link")
	}
	if strings.Contains(string(page), "s3cret") {
		t.Error("the clone URL's token reached the page")
	}
	if _, err := os.Stat(filepath.Join(f.out, "public", "docs", "api", "broken")); !os.IsNotExist(err) {
		t.Error("the page that cannot render was published")
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

func TestOutputCleanDecidesWhatStaysInTheOutputDirectory(t *testing.T) {
	for _, clean := range []bool{true, false} {
		f := newFixture(t)
		f.cfg.Output.Clean = clean
		old := f.tree(t, map[string]string{"old.md": "# Old\n"})
		if res := f.render(t, ready("b1", events.RepoOutcome{Repository: "gone", ContentPath: "gone", Tree: old})); !res.OK {
			t.Fatalf("first render %+v", res)
		}
		if err := os.WriteFile(filepath.Join(f.out, "build-report.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(f.out, "stray.txt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		// A staging directory left by a publish that was cut short is
		// docweave's own: output.clean removes it.
		if err := os.Mkdir(filepath.Join(f.out, ".public-b0"), 0o755); err != nil {
			t.Fatal(err)
		}
		tree := f.tree(t, map[string]string{"guide.md": "# Guide\n"})
		if res := f.render(t, ready("b2", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree})); !res.OK {
			t.Fatalf("second render %+v", res)
		}
		// A file docweave did not create stays, clean or not.
		if data, err := os.ReadFile(filepath.Join(f.out, "stray.txt")); err != nil || string(data) != "x" {
			t.Errorf("clean=%v: the user's file was touched: %q, %v", clean, data, err)
		}
		// content/ is laid out afresh either way: a repository that left
		// the build must leave the site too.
		_, goneErr := os.Stat(filepath.Join(f.out, "content", "gone"))
		_, gonePage := os.Stat(filepath.Join(f.out, "public", "docs", "gone"))
		if !os.IsNotExist(goneErr) || !os.IsNotExist(gonePage) {
			t.Errorf("clean=%v: the old repository stayed: content err %v, page err %v", clean, goneErr, gonePage)
		}
		if _, err := os.Stat(filepath.Join(f.out, "build-report.json")); err != nil {
			t.Errorf("clean=%v removed the build report: %v", clean, err)
		}
		if _, err := os.Stat(filepath.Join(f.out, "public", "docs", "api", "guide", "index.html")); err != nil {
			t.Errorf("clean=%v: new site not published: %v", clean, err)
		}
		if _, err := os.Stat(filepath.Join(f.out, ".public-b0")); clean == !os.IsNotExist(err) {
			t.Errorf("clean=%v: leftover staging directory: %v", clean, err)
		}
	}
}

// TestRenderRefusesAnOutputDirectoryItDidNotCreate: content/ or public/
// without docweave's marker belong to someone else, so the build fails
// and leaves them as they are.
func TestRenderRefusesAnOutputDirectoryItDidNotCreate(t *testing.T) {
	for _, name := range []string{"content", "public"} {
		f := newFixture(t)
		canary := filepath.Join(f.out, name, "mine.txt")
		if err := os.MkdirAll(filepath.Dir(canary), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(canary, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		tree := f.tree(t, map[string]string{"guide.md": "# Guide\n"})
		res := f.render(t, ready("b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree}))
		if res.OK || len(res.Issues) == 0 || !strings.Contains(res.Issues[0].Message, name+"/, which docweave did not create") {
			t.Fatalf("%s/: render %+v", name, res)
		}
		if data, err := os.ReadFile(canary); err != nil || string(data) != "keep" {
			t.Fatalf("%s/: the user's file was touched: %q %v", name, data, err)
		}
	}
}

// TestRenderChecksTheOutputDirectoryAgain: output.directory became a link
// to the configuration's directory after the configuration was loaded;
// the render refuses it and deletes nothing there.
func TestRenderChecksTheOutputDirectoryAgain(t *testing.T) {
	f := newFixture(t)
	confDir := t.TempDir()
	conf := filepath.Join(confDir, "docweave.yaml")
	if err := os.WriteFile(conf, []byte("repositories: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.cfg.Path = conf
	if err := os.Symlink(confDir, f.out); err != nil {
		t.Fatal(err)
	}
	tree := f.tree(t, map[string]string{"guide.md": "# Guide\n"})
	res := f.render(t, ready("b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree}))
	if res.OK || len(res.Issues) == 0 || !strings.Contains(res.Issues[0].Message, "holds the configuration file") {
		t.Fatalf("render %+v", res)
	}
	entries, _ := os.ReadDir(confDir)
	if len(entries) != 1 {
		t.Fatalf("the configuration's directory changed: %v", entries)
	}
}
