package daemon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// TestBrokerStoreKeepsWhatTheSiteUsesAndPrunesTheRest: a daemon keeping
// its artifacts in the broker's object store (build.artifact_store:
// broker) on a real NATS server. After a build, objects nobody names that
// were stored longer ago than build.artifact_retention are gone (a stray
// tree and record, and what only the previous site used); every object the
// served site needs stays (its trees, units' outputs, facts, records, URL
// list and the site itself). A build after pruning succeeds and is served,
// and one that brings back the first edition renders it again, since its
// stored output was pruned.
func TestBrokerStoreKeepsWhatTheSiteUsesAndPrunesTheRest(t *testing.T) {
	const retention = 2 * time.Second
	cluster := natstest.StartCluster(t, 1)
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n\nEdition 1.\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Broker.URL = cluster.URLs()
	cfg.Site.Name = "pruned"
	cfg.Build.ArtifactStore = config.ArtifactStoreBroker
	cfg.Build.ArtifactRetention = retention
	cfg.Build.WorkspaceDir = t.TempDir()
	d := startDaemon(t, cfg)
	a := d.addrs
	serves := func(text string) {
		t.Helper()
		eventually(t, "the docs server to serve "+text, func() bool {
			code, body := get(t, "http://"+a.Docs+"/docs/handbook/guide/")
			return code == 200 && strings.Contains(body, text)
		})
	}
	build := func(edition string) {
		t.Helper()
		repo.Commit(t, map[string]string{"docs/guide.md": "# Guide\n\n" + edition + "\n"}, "edit")
		if st := waitBuild(t, a.Admin, trigger(t, a.Admin)); st.State != "success" {
			t.Fatalf("the build of %q: %s %s", edition, st.State, st.SkipReason)
		}
		serves(edition)
	}
	serves("Edition 1.")

	ctx := context.Background()
	nc, err := nats.Connect(cluster.URLs())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	raw, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	js := natsbroker.NewScope(cfg.Site.Name).JetStream(raw)
	store, err := artifact.OpenObjects(ctx, js, 1)
	if err != nil {
		t.Fatal(err)
	}
	states, err := buildstate.OpenStates(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	served := func() (map[artifact.Ref]bool, map[string]bool) {
		t.Helper()
		var st *buildstate.SiteState
		eventually(t, "the saved state", func() bool {
			var err error
			st, err = states.Load(ctx)
			if err != nil {
				t.Fatalf("saved state: %v", err)
			}
			return st != nil // the start-up build is served before it is saved
		})
		// Listed here rather than by servedArtifacts, so the test checks it.
		trees, records := map[artifact.Ref]bool{artifact.Ref(st.SiteHash): true, artifact.Ref(st.URLs): true}, map[string]bool{}
		for _, o := range st.Repositories {
			trees[artifact.Ref(o.Tree)] = true
		}
		for _, u := range st.Renders {
			trees[artifact.Ref(u.Output)], trees[artifact.Ref(u.Facts)] = true, true
			if u.IssuesRef != "" {
				trees[artifact.Ref(u.IssuesRef)] = true
			}
			records["unit-"+u.Address] = true
		}
		if st.SiteHash == "" || st.URLs == "" || len(st.Renders) == 0 {
			t.Fatalf("the saved state names no site, URL list or unit: %+v", st)
		}
		return trees, records
	}
	bucketBytes := func() (uint64, uint64) {
		t.Helper()
		s, err := raw.Stream(ctx, "OBJ_pruned_"+artifact.ObjectStoreBucket)
		if err != nil {
			t.Fatal(err)
		}
		info, err := s.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return info.State.Msgs, info.State.Bytes
	}
	firstTrees, firstRecords := served()

	// putStray stores a tree that no site names.
	putStray := func(content string) artifact.Ref {
		t.Helper()
		file := filepath.Join(t.TempDir(), "stray.md")
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		ref, err := store.PutTree(ctx, []artifact.File{{Rel: "stray.md", Source: file}})
		if err != nil {
			t.Fatal(err)
		}
		return ref
	}
	stray := putStray("nobody's")
	if err := store.PutRecord(ctx, "unit-stray", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	msgs, bytes := bucketBytes()
	t.Logf("after the first build and the stray objects: %d messages, %d bytes in the bucket", msgs, bytes)
	time.Sleep(retention + 200*time.Millisecond)

	build("Edition 2.")
	secondTrees, secondRecords := served()
	has := func(ref artifact.Ref) bool {
		ok, err := store.Has(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	eventually(t, "the stray objects to be pruned", func() bool {
		_, err := store.Record(ctx, "unit-stray")
		return !has(stray) && err != nil
	})
	// A build that fails (its repository is gone) once the served site's
	// objects are older than the retention: the site stays served, and
	// the pruning after it keeps every object the site needs (and removes
	// a second stray tree, which says it ran).
	stray2 := putStray("nobody's either")
	time.Sleep(retention + 200*time.Millisecond)
	if err := os.Rename(repo.Dir(), repo.Dir()+".away"); err != nil {
		t.Fatal(err)
	}
	if st := waitBuild(t, a.Admin, trigger(t, a.Admin)); st.State == "success" {
		t.Fatal("a build of a repository that is gone succeeded")
	}
	if err := os.Rename(repo.Dir()+".away", repo.Dir()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the pruning after the build", func() bool { return !has(stray2) })
	for ref := range secondTrees {
		if !has(ref) {
			t.Errorf("%s, which the served site needs, was pruned", ref)
		}
	}
	for name := range secondRecords {
		if _, err := store.Record(ctx, name); err != nil {
			t.Errorf("record %s of a unit on the served site: %v", name, err)
		}
	}
	serves("Edition 2.")
	gone := 0
	for ref := range firstTrees {
		if secondTrees[ref] {
			continue
		}
		if has(ref) {
			t.Errorf("%s, which only the first site used, stayed", ref)
		}
		gone++
	}
	for name := range firstRecords {
		if !secondRecords[name] {
			if _, err := store.Record(ctx, name); err == nil {
				t.Errorf("record %s, which only the first site used, stayed", name)
			}
		}
	}
	if gone == 0 {
		t.Fatal("the two editions share every object; the test shows nothing")
	}
	msgs, bytes = bucketBytes()
	t.Logf("after the second build and its pruning: %d messages, %d bytes; %d trees of the first site gone", msgs, bytes, gone)

	build("Edition 3.")
	build("Edition 1.") // its output was pruned: rendered again
	_, records := served()
	for name := range records {
		if !firstRecords[name] {
			t.Errorf("the first edition is back under another address: record %s", name)
		}
	}
}
