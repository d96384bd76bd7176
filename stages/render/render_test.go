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
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/site"
)

// newStage builds a render stage of its own (as another process would)
// on the given store.
func newStage(t *testing.T, store artifact.Store) pipeline.Stage {
	t.Helper()
	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "api", URL: "https://github.com/example/api.git"}}
	st, err := New(pipeline.Deps{Config: &cfg, Store: store, Workspace: t.TempDir(), Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func putTree(t *testing.T, store artifact.Store, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	var list []artifact.File
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		list = append(list, artifact.File{Rel: rel, Source: p})
	}
	ref, err := store.PutTree(context.Background(), list)
	if err != nil {
		t.Fatal(err)
	}
	return string(ref)
}

func job(t *testing.T, store artifact.Store, build, tree string) *events.UnitRender {
	t.Helper()
	spec := site.Spec{Generator: config.Generator{Title: "Unit test"}, Repositories: []site.Repository{{Name: "api", ContentPath: "api"}}}
	ref, err := renders.PutSpec(context.Background(), store, spec, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &events.UnitRender{
		Header: events.Header{ID: "unit.render:" + build + ":api", BuildID: build},
		Unit:   events.RepoOutcome{Repository: "api", ContentPath: "api", Tree: tree},
		Spec:   ref, Address: spec.Address("api", tree),
	}
}

func outcome(t *testing.T, st pipeline.Stage, in *events.UnitRender) events.UnitOutcome {
	t.Helper()
	out, err := st.Handle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 {
		t.Fatalf("%d messages, want one unit.rendered", len(out))
	}
	return out[0].(*events.UnitRendered).Outcome
}

// TestRenderStoresAUnitByItsAddressForEveryProcess: a rendered unit's
// output and facts are stored under its address; another process's render
// stage reuses them without rendering; once they are pruned, the unit is
// rendered again.
func TestRenderStoresAUnitByItsAddressForEveryProcess(t *testing.T) {
	ctx := context.Background()
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tree := putTree(t, store, map[string]string{"guide.md": "# Guide\n\nHello {{< nosuch >}}.\n", "img/a.png": "png"})
	in := job(t, store, "b1", tree)
	first := outcome(t, newStage(t, store), in)
	if first.Outcome != events.UnitOutcomeRendered || first.Pages != 1 || first.Address != in.Address || first.Output == "" || first.Facts == "" {
		t.Fatalf("first render: %+v", first)
	}
	if len(first.Issues) != 1 || first.Issues[0].Path != "docs/guide.md" || first.Issues[0].Repository != "api" {
		t.Fatalf("page issues: %+v", first.Issues)
	}
	dir := t.TempDir()
	if err := store.Materialize(ctx, artifact.Ref(first.Output), dir); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "docs", "api", "guide", "index.html"))
	if err != nil || !strings.Contains(string(page), "Hello <code>{{&lt; nosuch &gt;}}</code>.") {
		t.Fatalf("stored page: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "docs", "api", "img", "a.png")); err != nil {
		t.Fatalf("static file not stored: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "docs" {
		t.Fatalf("the unit's output holds more than its own pages: %v", entries)
	}

	again := outcome(t, newStage(t, store), job(t, store, "b2", tree))
	if again.Outcome != events.UnitOutcomeReused || again.Output != first.Output || again.Pages != 1 || len(again.Issues) != 1 {
		t.Fatalf("another process's render of the same unit: %+v", again)
	}

	if _, err := store.Prune(map[artifact.Ref]bool{}, 0); err != nil {
		t.Fatal(err)
	}
	tree = putTree(t, store, map[string]string{"guide.md": "# Guide\n\nHello {{< nosuch >}}.\n", "img/a.png": "png"})
	third := outcome(t, newStage(t, store), job(t, store, "b3", tree))
	if third.Outcome != events.UnitOutcomeRendered {
		t.Fatalf("a unit whose output was pruned: %+v, want rendered again", third)
	}
}

// TestRenderFailureIsTheUnitsOwn: a unit Hugo cannot build fails with a
// RENDER_FAILED error naming its repository; nothing is recorded for it.
func TestRenderFailureIsTheUnitsOwn(t *testing.T) {
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Front matter Hugo refuses: the page fails even with its body as text.
	tree := putTree(t, store, map[string]string{"page.md": "---\nparams: 5\n---\n# Page\n"})
	in := job(t, store, "b1", tree)
	o := outcome(t, newStage(t, store), in)
	if o.Outcome != events.UnitOutcomeFailed || o.Error == "" || len(o.Issues) != 1 || o.Issues[0].Code != "RENDER_FAILED" || o.Issues[0].Repository != "api" {
		t.Fatalf("outcome %+v", o)
	}
	if _, ok, _ := renders.Stored(context.Background(), store, in.Address); ok {
		t.Fatal("a failed render was recorded")
	}
}

func TestRenderRefusesOtherMessages(t *testing.T) {
	store, _ := artifact.NewLocal(t.TempDir())
	_, err := newStage(t, store).Handle(context.Background(), &events.ContentReady{Header: events.Header{ID: "x", BuildID: "b"}})
	if !pipeline.IsPermanent(err) {
		t.Fatalf("err %v, want permanent", err)
	}
}
