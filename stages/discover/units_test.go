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
	"github.com/docweave/docweave/spill"
	"github.com/docweave/docweave/version"
)

// versionFixture is a discover stage with versioning on, over one
// repository served by git http-backend (branches main and release-1.x,
// tags v1.0.0 and v1.1.0) and one URL that does not exist.
type versionFixture struct {
	stage  pipeline.Stage
	cfg    *config.Config
	states *buildstate.States
	store  *artifact.Local
	repo   *gittest.Repo
}

func newVersionFixture(t *testing.T) *versionFixture {
	t.Helper()
	builds, states, store := testBuckets(t)
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# 1.0"})
	repo.Tag(t, "v1.0.0", false)
	repo.Commit(t, map[string]string{"docs/index.md": "# 1.1"}, "1.1")
	repo.Tag(t, "v1.1.0", true)
	repo.Branch(t, "release-1.x")
	repo.Commit(t, map[string]string{"docs/index.md": "# next"}, "next")
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	url := srv.Add(t, "product", repo)

	cfg := config.Default()
	cfg.Mode = config.ModeDaemon
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Build.MaxRetries = 0
	cfg.Versioning.Enabled = true
	cfg.Repositories = []config.Repository{
		{Name: "product", URL: url},
		{Name: "missing", URL: srv.URL() + "/no-such-repository"},
	}
	f := &versionFixture{cfg: &cfg, states: states, store: store, repo: repo}
	var err error
	f.stage, err = New(pipeline.Deps{Config: &cfg, FanIns: builds, States: states, Store: store, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *versionFixture) request(t *testing.T, id string, direct bool) []events.Event {
	t.Helper()
	out, err := f.stage.Handle(context.Background(), &events.BuildRequested{Header: events.Header{ID: id, BuildID: id}, Reason: "test", Direct: direct})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// saveGoodBuild records a state as fingerprint would after a good build of
// every version the remote lists now.
func (f *versionFixture) saveGoodBuild(t *testing.T, jobs []*events.RepoClone) {
	t.Helper()
	tree := storedTree(t, f.store)
	st := buildstate.SiteState{BuildID: "old", BuilderVersion: version.String(), ConfigHash: f.cfg.Hash(),
		SiteHash: "sha256:none", Pages: 4, Repositories: map[string]events.RepoOutcome{}}
	for _, j := range jobs {
		st.Repositories[j.Key()] = events.RepoOutcome{Repository: j.Repository, ContentPath: j.ContentPath,
			Version: j.Version, Commit: j.Version.Commit, Tree: tree, DocFiles: 1}
	}
	if err := f.states.Save(context.Background(), st); err != nil {
		t.Fatal(err)
	}
}

func storedTree(t *testing.T, store *artifact.Local) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "index.md")
	if err := writeFile(src, "# doc"); err != nil {
		t.Fatal(err)
	}
	ref, err := store.PutTree(context.Background(), []artifact.File{{Rel: "index.md", Source: src}})
	if err != nil {
		t.Fatal(err)
	}
	return string(ref)
}

func clones(out []events.Event) []*events.RepoClone {
	var jobs []*events.RepoClone
	for _, ev := range out {
		if j, ok := ev.(*events.RepoClone); ok {
			jobs = append(jobs, j)
		}
	}
	return jobs
}

func TestVersioningExpandsEachRepositoryIntoOneCloneJobPerVersion(t *testing.T) {
	f := newVersionFixture(t)
	out := f.request(t, "b1", true)

	want := map[string]struct {
		ref, path string
		rank      int
		def       bool
	}{
		"product@main":        {"refs/heads/main", "product/main", 0, true},
		"product@v1.1.0":      {"refs/tags/v1.1.0", "product/v1.1.0", 1, false},
		"product@v1.0.0":      {"refs/tags/v1.0.0", "product/v1.0.0", 2, false},
		"product@release-1.x": {"refs/heads/release-1.x", "product/release-1.x", 3, false},
	}
	jobs := clones(out)
	if len(jobs) != len(want) {
		t.Fatalf("clone jobs %d, want %d", len(jobs), len(want))
	}
	for _, j := range jobs {
		w, ok := want[j.Key()]
		if !ok {
			t.Fatalf("unexpected job %s", j.Key())
		}
		if j.Version.Ref != w.ref || j.ContentPath != w.path || j.Version.Rank != w.rank || j.Version.Default != w.def {
			t.Errorf("%s: %+v (content %s)", j.Key(), *j.Version, j.ContentPath)
		}
		if j.ID != "repo.clone:b1:"+j.Key() {
			t.Errorf("message ID %q", j.ID)
		}
	}
	tagged := strings.TrimSpace(f.repo.Git(t, "rev-parse", "v1.1.0^{commit}"))
	for _, j := range jobs {
		if j.Version.Name == "v1.1.0" && j.Version.Commit != tagged {
			t.Errorf("annotated tag listed at %s, want its commit %s", j.Version.Commit, tagged)
		}
	}

	// The repository that cannot be listed fails on its own, at once.
	var failed *events.RepoPruned
	for _, ev := range out {
		if p, ok := ev.(*events.RepoPruned); ok {
			failed = p
		}
	}
	if failed == nil || !failed.Outcome.Failed || failed.Outcome.Repository != "missing" ||
		len(failed.Outcome.Issues) != 1 || failed.Outcome.Issues[0].Code != report.CodeCloneNotFound {
		t.Fatalf("missing repository outcome %+v", failed)
	}
}

func TestVersionedSkipEvaluationRebuildsOnlyWhatMoved(t *testing.T) {
	f := newVersionFixture(t)
	f.cfg.Repositories = f.cfg.Repositories[:1]
	f.cfg.Output.Directory = t.TempDir()
	jobs := clones(f.request(t, "b1", true))
	f.saveGoodBuild(t, jobs)
	// A published site whose hash the state records, so only the versions
	// decide.
	public := filepath.Join(f.cfg.Output.Directory, "public")
	if err := os.MkdirAll(public, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(public, "index.html"), "<h1>site</h1>"); err != nil {
		t.Fatal(err)
	}
	siteRef, _, err := artifact.HashDir(public)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.states.Load(context.Background())
	st.SiteHash = string(siteRef)
	if err := f.states.Save(context.Background(), *st); err != nil {
		t.Fatal(err)
	}

	out := f.request(t, "b2", false)
	if fin, ok := out[0].(*events.BuildFinished); !ok || fin.Report.Outcome != report.OutcomeSkipped {
		t.Fatalf("unchanged versions not skipped: %v", kinds(out))
	} else if len(fin.Report.Versions) != 1 || len(fin.Report.Versions[0].Built) != 4 || fin.Report.Versions[0].Default != "main" {
		t.Fatalf("skipped report versions %+v", fin.Report.Versions)
	}

	// A new tag: only it is cloned, every other version is reused.
	f.repo.Tag(t, "v1.2.0", false)
	out = f.request(t, "b3", false)
	if got := clones(out); len(got) != 1 || got[0].Key() != "product@v1.2.0" {
		t.Fatalf("new tag: %v", kinds(out))
	}
	if k := kinds(out); k[events.SubjectRepoPruned] != 4 {
		t.Fatalf("new tag: want 4 reused versions, got %v", k)
	}

	// A moved branch: only it is cloned.
	f.repo.Git(t, "tag", "-d", "v1.2.0")
	f.repo.Commit(t, map[string]string{"docs/index.md": "# main moved"}, "move")
	out = f.request(t, "b4", false)
	if got := clones(out); len(got) != 1 || got[0].Key() != "product@main" {
		t.Fatalf("moved branch: %v", kinds(out))
	}

	// A deleted tag is a change too (its pages must leave the site), and it
	// gets no clone job.
	f.saveGoodBuild(t, clones(f.request(t, "b5", true)))
	f.repo.Git(t, "tag", "-d", "v1.0.0")
	out = f.request(t, "b6", false)
	for _, j := range clones(out) {
		t.Fatalf("deleted tag: unexpected clone of %s", j.Key())
	}
	var ready *events.ContentReady
	for _, ev := range out {
		if c, ok := ev.(*events.ContentReady); ok {
			ready = c
		}
	}
	if ready == nil || ready.Units != 3 {
		t.Fatalf("deleted tag: %v", kinds(out))
	}
	outcomes, err := spill.LoadList[events.RepoOutcome](context.Background(), f.store, t.TempDir(), ready.OutcomesRef, ready.Units)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outcomes {
		if o.Version == nil || o.Version.Name == "v1.0.0" || !o.Reused {
			t.Fatalf("deleted tag: outcome %+v", o)
		}
	}
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }

// A configured branch that is not on the remote: the first version stands
// in as the default, and its job carries a warning saying so.
func TestMissingConfiguredBranchLeavesADefaultAndAWarning(t *testing.T) {
	f := newVersionFixture(t)
	f.cfg.Repositories = f.cfg.Repositories[:1]
	f.cfg.Repositories[0].Branch = "gone"
	var def *events.RepoClone
	for _, j := range clones(f.request(t, "b1", true)) {
		if j.Version.Default {
			if def != nil {
				t.Fatalf("two defaults: %s and %s", def.Key(), j.Key())
			}
			def = j
		} else if len(j.Issues) != 0 {
			t.Fatalf("%s carries issues %+v", j.Key(), j.Issues)
		}
	}
	if def == nil || def.Version.Name != "v1.1.0" || def.Version.Rank != 0 {
		t.Fatalf("stand-in default %+v", def)
	}
	if len(def.Issues) != 1 || def.Issues[0].Code != report.CodeBranchNotFound || def.Issues[0].Severity != report.SeverityWarning ||
		!strings.Contains(def.Issues[0].Message, `"gone"`) {
		t.Fatalf("issues %+v", def.Issues)
	}
}
