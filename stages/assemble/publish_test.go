package assemble

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/stagetest"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/spill"
	// The render stage runs beside assemble in these tests; they meet
	// only through the messages the fixture passes between them.
	_ "github.com/docweave/docweave/stages/render"
)

// fixture runs the assemble stage with a render stage beside it on an
// embedded broker, and passes their messages by hand: what the runner
// does, without the runner.
type fixture struct {
	stage    pipeline.Stage // assemble
	renderer pipeline.Stage
	store    *artifact.Local
	builds   *buildstate.FanIns
	states   *buildstate.States
	out      string
	cfg      *config.Config // the stages' configuration; tests may change it
	// rendered counts the unit.render jobs the render stage handled.
	rendered int
}

func newFixture(t *testing.T) *fixture { return newFixtureWith(t, nil) }

// newFixtureWith is newFixture with the stages' store wrapped (a shared
// store, say); wrap may be nil.
func newFixtureWith(t *testing.T, wrap func(*artifact.Local) artifact.Store) *fixture {
	t.Helper()
	builds, states := stagetest.Buckets(t)
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var stages artifact.Store = store
	if wrap != nil {
		stages = wrap(store)
	}
	cfg := config.Default()
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Generator.Title = "Render test"
	deps := pipeline.Deps{Config: &cfg, Store: stages, FanIns: builds, States: states, Workspace: t.TempDir(), Log: zerolog.Nop()}
	st, err := New(deps)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := pipeline.NewStages([]string{"render"}, deps)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{stage: st, renderer: rs[0], store: store, builds: builds, states: states, out: cfg.Output.Directory, cfg: &cfg}
}

// tree stores files (path → content) as a documentation tree.
func (f *fixture) tree(t *testing.T, files map[string]string) string {
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

// ready is the build.content_ready of a build with these outcomes, the
// list stored aside as the join stores it.
func (f *fixture) ready(t *testing.T, build string, outcomes ...events.RepoOutcome) *events.ContentReady {
	t.Helper()
	ref, err := spill.PutList(context.Background(), f.store, t.TempDir(), outcomes)
	if err != nil {
		t.Fatal(err)
	}
	return &events.ContentReady{Header: events.Header{ID: "r:" + build, BuildID: build}, OutcomesRef: ref, Units: len(outcomes)}
}

// units reads the units a site.rendered refers to.
func (f *fixture) units(t *testing.T, res *events.SiteRendered) []events.UnitOutcome {
	t.Helper()
	if res.UnitsRef == "" {
		return nil
	}
	units, err := spill.LoadList[events.UnitOutcome](context.Background(), f.store, t.TempDir(), res.UnitsRef, res.Units)
	if err != nil {
		t.Fatal(err)
	}
	return units
}

// render records the build's clone join as prune would, hands the
// content_ready to the assemble stage, every unit.render it plans to the
// render stage and every answer back, and returns the site.rendered.
func (f *fixture) render(t *testing.T, ev *events.ContentReady) *events.SiteRendered {
	t.Helper()
	ctx := context.Background()
	outcomes, err := spill.LoadList[events.RepoOutcome](ctx, f.store, t.TempDir(), ev.OutcomesRef, ev.Units)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range outcomes {
		keys = append(keys, o.Key())
	}
	if err := f.builds.Begin(ctx, buildstate.BuildState{BuildID: ev.BuildID}, keys); err != nil {
		t.Fatal(err)
	}
	for _, o := range outcomes {
		if _, _, err := f.builds.Arrive(ctx, ev.BuildID, o); err != nil {
			t.Fatal(err)
		}
	}
	queue := []events.Event{ev}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		var out []events.Event
		var err error
		switch m := next.(type) {
		case *events.SiteRendered:
			return m
		case *events.UnitRender:
			f.rendered++
			out, err = f.renderer.Handle(ctx, m)
		default:
			out, err = f.stage.Handle(ctx, m)
		}
		if err != nil {
			t.Fatalf("%s: %v", next.Subject(), err)
		}
		queue = append(queue, out...)
	}
	t.Fatal("no site.rendered")
	return nil
}

func TestRenderPublishesAndAFailedRenderKeepsTheLastGoodSite(t *testing.T) {
	f := newFixture(t)
	good := f.tree(t, map[string]string{"guide.md": "---\ntitle: Guide\n---\nFirst version.\n"})
	res := f.render(t, f.ready(t, "b1",
		events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: good},
		events.RepoOutcome{Repository: "broken", ContentPath: "broken", Failed: true}))
	if !res.OK || res.Pages != 1 || !strings.HasPrefix(res.Site, "sha256:") {
		t.Fatalf("first render %+v", res)
	}
	page := filepath.Join(f.out, "public", "docs", "api", "guide", "index.html")
	if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), "First version.") {
		t.Fatalf("published page: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.out, "public", "docs", "broken")); !os.IsNotExist(err) {
		t.Fatal("a failed repository is on the site")
	}

	// A unit that fails as a whole (here: every page of it fails, which
	// points at something other than the pages) is not published; with
	// no other unit, nothing is, and the old site stays.
	bad := f.tree(t, map[string]string{"guide.md": "---\ntitle: Guide\nparams: 5\n---\nSecond version.\n"})
	res = f.render(t, f.ready(t, "b2", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: bad}))
	if res.OK || len(res.Issues) == 0 || res.Issues[0].Code != report.CodeRenderFailed || res.Issues[0].Severity != report.SeverityError {
		t.Fatalf("broken render reported %+v", res)
	}
	if data, err := os.ReadFile(page); err != nil || !strings.Contains(string(data), "First version.") {
		t.Fatalf("the last good site was replaced: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(f.out, ".docweave", "next", "*"))
	if len(leftovers) != 0 {
		t.Fatalf("the first publish left something behind in next/: %v", leftovers)
	}
}

func TestRenderFailureOfTheSiteSettingsKeepsTheLastGoodSite(t *testing.T) {
	f := newFixture(t)
	good := f.tree(t, map[string]string{"guide.md": "# Guide\n\nFirst version.\n"})
	if res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: good})); !res.OK {
		t.Fatalf("first render %+v", res)
	}
	// Settings the site refuses (a configuration loaded without validation).
	f.cfg.Generator.Params = map[string]any{"themeVariant": "neon"}
	res := f.render(t, f.ready(t, "b2", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: good}))
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
	res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Branch: "main", Tree: tree}))
	if !res.OK || res.Pages != 3 {
		t.Fatalf("render with page problems: %+v", res)
	}
	// Each page's problem by its source; a tag Hugo could not read is shown
	// as text, raw syntax to its reader, where an unknown one is shown as code.
	want := map[string]bool{"docs/guide.md " + report.CodeUnknownShortcode: true, "docs/broken.md " + report.CodeShownAsText: true,
		"docs/broken.md " + report.CodeRawSyntax: true}
	if len(res.Issues) != len(want) {
		t.Fatalf("issues = %+v, want %d", res.Issues, len(want))
	}
	for _, is := range res.Issues {
		if !want[is.Path+" "+is.Code] || is.Repository != "api" || is.Severity != report.SeverityWarning || is.Stage != "render" || is.Message == "" {
			t.Errorf("issue %+v, want one of %v, a warning of the render stage naming api and the file in the repository", is, want)
		}
	}
	page, err := os.ReadFile(filepath.Join(f.out, "public", "docs", "api", "guide", "index.html"))
	if err != nil || !strings.Contains(string(page), "New version <code>{{&lt; shortcode-that-does-not-exist &gt;}}</code>.") {
		t.Fatalf("the page with an unknown shortcode was not published: %v", err)
	}
	// The edit link comes from the clone URL, without its credentials.
	if !strings.Contains(string(page), `href="https://github.com/example/api/edit/main/docs/guide.md"`) {
		t.Errorf("page lacks its edit link")
	}
	if strings.Contains(string(page), "s3cret") {
		t.Error("the clone URL's token reached the page")
	}
	// The page Hugo cannot render as written is published with what
	// broke it shown as text.
	broken, err := os.ReadFile(filepath.Join(f.out, "public", "docs", "api", "broken", "index.html"))
	if err != nil || !strings.Contains(string(broken), "{{&lt; param nosuch &gt;}}") {
		t.Errorf("the page Hugo cannot render as written is not published with its shortcode as text: %v", err)
	}
}

func TestRenderWithNoSuccessfulRepositoryRendersNothing(t *testing.T) {
	f := newFixture(t)
	res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Failed: true}))
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
		if res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "gone", ContentPath: "gone", Tree: old})); !res.OK {
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
		if res := f.render(t, f.ready(t, "b2", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree})); !res.OK {
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
		res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree}))
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
	res := f.render(t, f.ready(t, "b1", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree}))
	if res.OK || len(res.Issues) == 0 || !strings.Contains(res.Issues[0].Message, "holds the configuration file") {
		t.Fatalf("render %+v", res)
	}
	entries, _ := os.ReadDir(confDir)
	if len(entries) != 1 {
		t.Fatalf("the configuration's directory changed: %v", entries)
	}
}

// TestUnitsRenderOnceAndAPushRendersOnlyItsUnit: a second build of the
// same trees renders nothing and publishes the same site; a new tree of
// one repository renders that unit only; a change of a site-wide setting
// renders every unit again, from the same trees.
func TestUnitsRenderOnceAndAPushRendersOnlyItsUnit(t *testing.T) {
	f := newFixture(t)
	trees := map[string]string{}
	for _, name := range []string{"alpha", "beta", "gamma"} {
		trees[name] = f.tree(t, map[string]string{"guide.md": "# " + name + " guide\n\nText of " + name + ".\n", "ref/api.md": "---\ntags: [shared]\n---\n# API of " + name + "\n"})
	}
	build := func(id string) *events.SiteRendered {
		t.Helper()
		var outcomes []events.RepoOutcome
		for _, name := range []string{"alpha", "beta", "gamma"} {
			outcomes = append(outcomes, events.RepoOutcome{Repository: name, ContentPath: name, Tree: trees[name]})
		}
		res := f.render(t, f.ready(t, id, outcomes...))
		if !res.OK {
			t.Fatalf("build %s: %+v", id, res)
		}
		return res
	}
	count := func(res *events.SiteRendered) map[string]int {
		n := map[string]int{}
		for _, u := range f.units(t, res) {
			n[u.Outcome]++
		}
		return n
	}
	first := build("b1")
	if f.rendered != 3 || count(first)[events.UnitOutcomeRendered] != 3 {
		t.Fatalf("cold build rendered %d units: %v", f.rendered, count(first))
	}
	second := build("b2")
	if f.rendered != 3 || count(second)[events.UnitOutcomeReused] != 3 {
		t.Fatalf("an unchanged build rendered %d more units: %v", f.rendered-3, count(second))
	}
	if second.Site != first.Site || second.Pages != first.Pages {
		t.Fatalf("the reused site differs: %s/%d vs %s/%d", second.Site, second.Pages, first.Site, first.Pages)
	}
	trees["beta"] = f.tree(t, map[string]string{"guide.md": "# beta guide\n\nNew text of beta.\n", "ref/api.md": "---\ntags: [shared]\n---\n# API of beta\n"})
	third := build("b3")
	if f.rendered != 4 || count(third)[events.UnitOutcomeRendered] != 1 {
		t.Fatalf("a push to beta rendered %d units: %v", f.rendered-3, count(third))
	}
	page, err := os.ReadFile(filepath.Join(f.out, "public", "docs", "beta", "guide", "index.html"))
	if err != nil || !strings.Contains(string(page), "New text of beta.") {
		t.Fatalf("beta's new page is not published: %v", err)
	}
	term, err := os.ReadFile(filepath.Join(f.out, "public", "tags", "shared", "index.html"))
	if err != nil || strings.Count(string(term), "<li><a href=\"/docs/") != 3 {
		t.Fatalf("the term page does not list the pages of all three repositories: %v\n%s", err, term)
	}
	f.cfg.Generator.Title = "Renamed"
	fourth := build("b4")
	if f.rendered != 7 || count(fourth)[events.UnitOutcomeRendered] != 3 {
		t.Fatalf("a new title rendered %d units: %v", f.rendered-4, count(fourth))
	}
	page, _ = os.ReadFile(filepath.Join(f.out, "public", "docs", "alpha", "guide", "index.html"))
	if !strings.Contains(string(page), "Renamed") {
		t.Fatal("alpha's pages do not carry the new title")
	}
}

// TestAUnitThatCannotRenderFailsAlone: a repository holding a Hugo content
// adapter that calls a partial the theme lacks fails by itself; the other
// repository is published, and the build reports the failure. With a last
// good output in the saved state, the failed unit keeps it, marked stale.
func TestAUnitThatCannotRenderFailsAlone(t *testing.T) {
	f := newFixture(t)
	good := f.tree(t, map[string]string{"guide.md": "# Good\n\nFine.\n"})
	broken := f.tree(t, map[string]string{"page.md": "---\nparams: 5\n---\n# Page\n"})
	res := f.render(t, f.ready(t, "b1",
		events.RepoOutcome{Repository: "good", ContentPath: "good", Tree: good},
		events.RepoOutcome{Repository: "broken", ContentPath: "broken", Tree: broken}))
	if !res.OK {
		t.Fatalf("one unit's failure failed the site: %+v", res)
	}
	var failed *events.UnitOutcome
	units := f.units(t, res)
	for i, u := range units {
		if u.Key == "broken" {
			failed = &units[i]
		}
	}
	if failed == nil || failed.Outcome != events.UnitOutcomeFailed || failed.Stale || failed.Error == "" {
		t.Fatalf("broken unit: %+v", failed)
	}
	if !hasIssue(res.Issues, report.CodeRenderFailed, "broken") {
		t.Fatalf("no RENDER_FAILED issue for broken: %+v", res.Issues)
	}
	if _, err := os.Stat(filepath.Join(f.out, "public", "docs", "good", "guide", "index.html")); err != nil {
		t.Fatalf("the good repository is not published: %v", err)
	}

	// The daemon's saved state knows broken's last good output: a build in
	// which broken fails keeps it on the site.
	fine := f.tree(t, map[string]string{"page.md": "# Page\n\nThe last good page.\n"})
	res = f.render(t, f.ready(t, "b2",
		events.RepoOutcome{Repository: "good", ContentPath: "good", Tree: good},
		events.RepoOutcome{Repository: "broken", ContentPath: "broken", Tree: fine}))
	if !res.OK {
		t.Fatalf("b2: %+v", res)
	}
	saved := buildstate.SiteState{BuildID: "b2", Renders: map[string]events.UnitOutcome{}}
	for _, u := range f.units(t, res) {
		saved.Renders[u.Key] = u
	}
	if err := f.states.Save(context.Background(), saved); err != nil {
		t.Fatal(err)
	}
	res = f.render(t, f.ready(t, "b3",
		events.RepoOutcome{Repository: "good", ContentPath: "good", Tree: good},
		events.RepoOutcome{Repository: "broken", ContentPath: "broken", Tree: broken}))
	if !res.OK {
		t.Fatalf("b3: %+v", res)
	}
	for _, u := range f.units(t, res) {
		if u.Key == "broken" && (!u.Stale || u.Outcome != events.UnitOutcomeFailed) {
			t.Fatalf("broken in b3: %+v, want failed and stale", u)
		}
	}
	page, err := os.ReadFile(filepath.Join(f.out, "public", "docs", "broken", "page", "index.html"))
	if err != nil || !strings.Contains(string(page), "The last good page.") {
		t.Fatalf("the last good page of broken is not on the site: %v", err)
	}
}

func hasIssue(issues []report.Issue, code, repo string) bool {
	for _, is := range issues {
		if is.Code == code && is.Repository == repo {
			return true
		}
	}
	return false
}

// TestAnOlderBuildNeverReplacesANewerSite: once a newer build has
// published, an older one (a redelivered render after a crash) is
// assembled but not published.
func TestAnOlderBuildNeverReplacesANewerSite(t *testing.T) {
	f := newFixture(t)
	newer := f.tree(t, map[string]string{"guide.md": "# Guide\n\nNewer.\n"})
	older := f.tree(t, map[string]string{"guide.md": "# Guide\n\nOlder.\n"})
	if res := f.render(t, f.ready(t, "20261123t100000.000002-b", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: newer})); !res.OK {
		t.Fatalf("newer build: %+v", res)
	}
	res := f.render(t, f.ready(t, "20261123t100000.000001-a", events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: older}))
	if res.OK || !res.Superseded {
		t.Fatalf("older build: %+v, want superseded", res)
	}
	page, _ := os.ReadFile(filepath.Join(f.out, "public", "docs", "api", "guide", "index.html"))
	if !strings.Contains(string(page), "Newer.") {
		t.Fatal("the older build replaced the newer site")
	}
}

// TestPublishKeepsTheSiteBeforeForTheNextAssembly: after a publish the
// directory next/ holds the site before it, with a record of what it
// holds; the next assembly starts from it. A next/ whose record is gone (a
// process stopped while changing it) is emptied first, so nothing stray
// is ever published.
func TestPublishKeepsTheSiteBeforeForTheNextAssembly(t *testing.T) {
	f := newFixture(t)
	v1 := f.tree(t, map[string]string{"guide.md": "# Guide\n\nFirst.\n"})
	v2 := f.tree(t, map[string]string{"guide.md": "# Guide\n\nSecond.\n"})
	v3 := f.tree(t, map[string]string{"guide.md": "# Guide\n\nThird.\n"})
	other := f.tree(t, map[string]string{"page.md": "# Other\n"})
	build := func(id, tree string) *events.SiteRendered {
		t.Helper()
		res := f.render(t, f.ready(t, id,
			events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree},
			events.RepoOutcome{Repository: "other", ContentPath: "other", Tree: other}))
		if !res.OK {
			t.Fatalf("build %s: %+v", id, res)
		}
		return res
	}
	served := func(want string) {
		t.Helper()
		page, err := os.ReadFile(filepath.Join(f.out, "public", "docs", "api", "guide", "index.html"))
		if err != nil || !strings.Contains(string(page), want) {
			t.Fatalf("public/ does not serve %q: %v", want, err)
		}
	}
	first := build("b1", v1)
	build("b2", v2)
	served("Second.")
	before, err := os.ReadFile(filepath.Join(f.out, ".docweave", "next", "docs", "api", "guide", "index.html"))
	if err != nil || !strings.Contains(string(before), "First.") {
		t.Fatalf("next/ does not hold the site before: %v", err)
	}
	records, _ := filepath.Glob(filepath.Join(f.out, ".docweave", "sites", "*.json"))
	if len(records) != 2 {
		t.Fatalf("records %v, want one for public/ and one for next/", records)
	}
	// Going back to the first edition publishes the first site's files.
	if res := build("b3", v1); res.Site != first.Site {
		t.Fatalf("the same content published %s, first %s", res.Site, first.Site)
	}
	// A next/ without its record, with a stray file: emptied, then built.
	stray := filepath.Join(f.out, ".docweave", "next", "stray.html")
	if err := os.WriteFile(stray, []byte("stray"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range records {
		os.Remove(r)
	}
	res := build("b4", v3)
	served("Third.")
	if _, err := os.Stat(filepath.Join(f.out, "public", "stray.html")); !os.IsNotExist(err) {
		t.Fatalf("a stray file in next/ was published: %v", err)
	}
	hash, _, err := artifact.HashDir(filepath.Join(f.out, "public"))
	if err != nil || string(hash) != res.Site {
		t.Fatalf("the reported site %s is not what public/ holds (%s, %v)", res.Site, hash, err)
	}
}
