package daemon

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/workspace"
)

// buildReport reads a finished build's report from the admin API.
func buildReport(t *testing.T, admin, id string) report.Report {
	t.Helper()
	code, body := get(t, "http://"+admin+"/api/builds/"+id)
	var st struct {
		Report *report.Report `json:"report"`
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil || code != http.StatusOK || st.Report == nil {
		t.Fatalf("build %s: %d %v\n%s", id, code, err, body)
	}
	return *st.Report
}

// TestDaemonVersionsFollowTagsAndBranches: with versioning, a new tag
// pushed (and announced by a signed webhook) rebuilds with only that
// version cloned; nothing else rebuilds; a deleted tag leaves the site.
func TestDaemonVersionsFollowTagsAndBranches(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nRelease one.\n"})
	repo.Tag(t, "v1.0.0", true)
	repo.Commit(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nMain edition.\n"}, "main")
	url := srv.Add(t, "handbook", repo)
	cfg := daemonConfig(t, url)
	cfg.Versioning.Enabled = true
	d := startDaemon(t, cfg)
	a := d.addrs

	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+a.Admin+"/ready"); return code == 200 })
	eventually(t, "the start-up build to finish", func() bool {
		code, body := get(t, "http://"+a.Admin+"/status")
		return code == 200 && !strings.Contains(body, StateRunning)
	})
	for path, text := range map[string]string{"/docs/handbook/main/guide/": "Main edition.", "/docs/handbook/v1.0.0/guide/": "Release one."} {
		if code, body := get(t, "http://"+a.Docs+path); code != 200 || !strings.Contains(body, text) {
			t.Fatalf("%s: %d, want %q", path, code, text)
		}
	}

	// Nothing moved: skipped.
	if st := waitBuild(t, a.Admin, trigger(t, a.Admin)); st.State != "skipped" || !strings.Contains(st.SkipReason, "2 versions") {
		t.Fatalf("unchanged trigger: %+v", st)
	}

	// A new tag: only it is cloned.
	repo.Commit(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nRelease two.\n"}, "two")
	repo.Tag(t, "v2.0.0", false)
	code, body := postWebhook(t, "http://"+a.Webhook+"/webhooks/github", pushPayload(url, "refs/tags/v2.0.0"), githubSecret)
	if code != http.StatusAccepted {
		t.Fatalf("tag push answered %d: %s", code, body)
	}
	var accepted struct {
		BuildID string `json:"build_id"`
	}
	_ = json.Unmarshal([]byte(body), &accepted)
	if st := waitBuild(t, a.Admin, accepted.BuildID); st.State != "success" {
		t.Fatalf("tag build ended %+v", st)
	}
	rep := buildReport(t, a.Admin, accepted.BuildID)
	cloned := map[string]bool{}
	for _, r := range rep.Repositories {
		if !r.Reused {
			cloned[r.Version] = true
		}
	}
	// main moved with the commit too; v1.0.0 did not and is reused.
	if len(cloned) != 2 || !cloned["v2.0.0"] || !cloned["main"] {
		t.Fatalf("cloned versions %v, want v2.0.0 and main", cloned)
	}
	if rep.ClonedRepositories != 2 || rep.ReusedRepositories != 1 {
		t.Fatalf("counted %d cloned and %d reused, want 2 and 1", rep.ClonedRepositories, rep.ReusedRepositories)
	}
	if code, body := get(t, "http://"+a.Docs+"/docs/handbook/v2.0.0/guide/"); code != 200 || !strings.Contains(body, "Release two.") {
		t.Fatalf("new tag not served: %d", code)
	}

	// The tag is deleted: the next build drops its pages.
	repo.Git(t, "tag", "-d", "v1.0.0")
	if st := waitBuild(t, a.Admin, trigger(t, a.Admin)); st.State != "success" {
		t.Fatalf("build after deleting a tag: %+v", st)
	}
	if code, _ := get(t, "http://"+a.Docs+"/docs/handbook/v1.0.0/guide/"); code != http.StatusNotFound {
		t.Fatalf("deleted tag still served: %d", code)
	}
}

// With clone_strategy update, each version keeps a cached checkout; the
// checkout of a version that went away is removed after a build.
func TestDaemonPrunesCheckoutsOfVersionsThatWentAway(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n\nOne.\n"})
	repo.Tag(t, "v1.0.0", false)
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Versioning.Enabled = true
	cfg.Build.CloneStrategy = "update"
	cache := workspace.For(cfg).RepoCache
	stale := filepath.Join(cache, workspace.CheckoutName("handbook", "v0.1.0"))
	if err := os.MkdirAll(filepath.Join(stale, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, cfg)
	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+d.addrs.Admin+"/ready"); return code == 200 })
	eventually(t, "the stale checkout to be removed", func() bool {
		_, err := os.Stat(stale)
		return os.IsNotExist(err)
	})
	for _, name := range []string{"handbook@main", "handbook@v1.0.0"} {
		if _, err := os.Stat(filepath.Join(cache, name)); err != nil {
			t.Errorf("checkout %s of a live version: %v", name, err)
		}
	}
}
