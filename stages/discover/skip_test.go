package discover

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
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/version"
)

type skipFixture struct {
	stage  pipeline.Stage
	cfg    *config.Config
	states *buildstate.States
	store  *artifact.Local
	repos  map[string]*gittest.Repo
}

func newSkipFixture(t *testing.T) *skipFixture {
	t.Helper()
	builds, states, store := testBuckets(t)
	f := &skipFixture{states: states, store: store, repos: map[string]*gittest.Repo{}}
	cfg := config.Default()
	cfg.Mode = config.ModeDaemon
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	for _, name := range []string{"alpha", "beta"} {
		r := gittest.NewRepo(t, map[string]string{"docs/index.md": "# " + name})
		f.repos[name] = r
		cfg.Repositories = append(cfg.Repositories, config.Repository{Name: name, URL: r.FileURL()})
	}
	f.cfg = &cfg
	var err error
	f.stage, err = New(pipeline.Deps{Config: &cfg, FanIns: builds, States: states, Store: store, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// saveGoodBuild records a state as fingerprint would after a good build of
// the repositories at their current heads, with a published site.
func (f *skipFixture) saveGoodBuild(t *testing.T) {
	t.Helper()
	public := filepath.Join(f.cfg.Output.Directory, "public")
	if err := os.MkdirAll(public, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(public, "index.html"), []byte("<h1>site</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	siteRef, _, err := artifact.HashDir(public)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "index.md")
	os.WriteFile(src, []byte("# doc"), 0o644)
	tree, err := f.store.PutTree(context.Background(), []artifact.File{{Rel: "index.md", Source: src}})
	if err != nil {
		t.Fatal(err)
	}
	st := buildstate.SiteState{BuildID: "old", BuilderVersion: version.String(), ConfigHash: f.cfg.Hash(), AcquisitionHash: f.cfg.AcquisitionHash(),
		SiteHash: string(siteRef), Pages: 2, Repositories: map[string]events.RepoOutcome{}}
	for name, r := range f.repos {
		st.Repositories[name] = events.RepoOutcome{Repository: name, ContentPath: name, Commit: r.Head(t), Tree: string(tree), DocFiles: 1}
	}
	if err := f.states.Save(context.Background(), st); err != nil {
		t.Fatal(err)
	}
}

func (f *skipFixture) request(t *testing.T, id string, direct bool) []events.Event {
	t.Helper()
	out, err := f.stage.Handle(context.Background(), &events.BuildRequested{Header: events.Header{ID: id, BuildID: id}, Reason: "test", Direct: direct})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func kinds(out []events.Event) map[string]int {
	m := map[string]int{}
	for _, ev := range out {
		m[ev.Subject()]++
	}
	return m
}

func TestSkipEvaluation(t *testing.T) {
	f := newSkipFixture(t)

	// No saved state: every repository is cloned.
	if k := kinds(f.request(t, "b1", false)); k[events.SubjectRepoClone] != 2 {
		t.Fatalf("first build: %v", k)
	}

	// Nothing changed since the saved good build: skipped, with a reason.
	f.saveGoodBuild(t)
	out := f.request(t, "b2", false)
	fin, ok := out[0].(*events.BuildFinished)
	if len(out) != 1 || !ok || fin.Report.Outcome != report.OutcomeSkipped || !strings.Contains(fin.Report.SkipReason, "nothing changed") {
		t.Fatalf("unchanged build not skipped: %v", kinds(out))
	}
	if fin.Report.ExitCode() != 0 || fin.Report.RenderedPages != 2 {
		t.Fatalf("skipped report %+v", fin.Report)
	}
	if !strings.Contains(fin.Report.StageDurationsNote, "summed") {
		t.Errorf("the report does not say its stage durations are sums: %q", fin.Report.StageDurationsNote)
	}
	for _, r := range fin.Report.Repositories {
		if want := f.repos[r.Name].FileURL(); r.URL != want {
			t.Errorf("skipped report: repository %s has url %q, want %q as a built one has", r.Name, r.URL, want)
		}
	}

	// Direct builds never skip.
	if k := kinds(f.request(t, "b3", true)); k[events.SubjectRepoClone] != 2 {
		t.Fatalf("direct build: %v", k)
	}

	// A new commit in one repository: only that one is cloned, the other's
	// saved tree is reused.
	f.repos["beta"].Commit(t, map[string]string{"docs/new.md": "# new"}, "more docs")
	out = f.request(t, "b4", false)
	k := kinds(out)
	if k[events.SubjectRepoClone] != 1 || k[events.SubjectRepoPruned] != 1 || k[events.SubjectBuildFinished] != 0 {
		t.Fatalf("one repository changed: %v", k)
	}
	for _, ev := range out {
		if c, ok := ev.(*events.RepoClone); ok && c.Repository != "beta" {
			t.Fatalf("cloned %s, want beta", c.Repository)
		}
		if p, ok := ev.(*events.RepoPruned); ok && (!p.Outcome.Reused || p.Outcome.Repository != "alpha") {
			t.Fatalf("reused %+v, want alpha", p.Outcome)
		}
	}

	// The published site was tampered with: rebuilt although no repository moved.
	f.saveGoodBuild(t)
	os.WriteFile(filepath.Join(f.cfg.Output.Directory, "public", "index.html"), []byte("defaced"), 0o644)
	out = f.request(t, "b5", false)
	if k := kinds(out); k[events.SubjectBuildFinished] != 0 || k[events.SubjectContentReady] != 1 {
		t.Fatalf("tampered site: %v", k)
	}

	// A change of the site settings alone re-renders every unit from the
	// saved trees: no clone, never a skip.
	f.saveGoodBuild(t)
	f.cfg.Generator.Title = "Another title"
	if k := kinds(f.request(t, "b6", false)); k[events.SubjectRepoClone] != 0 || k[events.SubjectRepoPruned] != 2 || k[events.SubjectContentReady] != 1 {
		t.Fatalf("site settings change: %v, want both trees reused and content ready", k)
	}

	// A change of what decides the trees acquires everything again.
	f.saveGoodBuild(t)
	f.cfg.Repositories[0].Paths = []string{"docs", "more"}
	if k := kinds(f.request(t, "b7", false)); k[events.SubjectRepoClone] != 2 {
		t.Fatalf("configuration change: %v", k)
	}
}
