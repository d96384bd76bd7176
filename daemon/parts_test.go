package daemon

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// finishedReport waits for a build and returns its report.
func finishedReport(t *testing.T, admin, id string) report.Report {
	t.Helper()
	waitBuild(t, admin, id)
	return buildReport(t, admin, id)
}

func unitsOf(rep report.Report) report.UnitCounts {
	if rep.Units == nil {
		return report.UnitCounts{}
	}
	return *rep.Units
}

// TestDaemonRendersOnlyWhatChanged: a push to one of three repositories
// clones and renders that one only; a repository whose render fails keeps
// its last good pages on the site, marked stale in the report and on
// /status; after a restart the stored units are still reused.
func TestDaemonRendersOnlyWhatChanged(t *testing.T) {
	repos := map[string]*gittest.Repo{}
	cfg := daemonConfig(t, "")
	cfg.Repositories = nil
	for _, name := range []string{"alpha", "beta", "gamma"} {
		repos[name] = gittest.NewRepo(t, map[string]string{"docs/guide.md": "# " + name + "\n\nFirst edition of " + name + ".\n"})
		cfg.Repositories = append(cfg.Repositories, config.Repository{Name: name, URL: repos[name].FileURL()})
	}
	cfg.Build.WorkspaceDir = t.TempDir()
	d := startDaemon(t, cfg)
	a := d.addrs
	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+a.Admin+"/ready"); return code == 200 })
	eventually(t, "the start-up build to finish", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return !strings.Contains(body, StateRunning)
	})

	repos["beta"].Commit(t, map[string]string{"docs/guide.md": "# beta\n\nSecond edition of beta.\n"}, "edit")
	rep := finishedReport(t, a.Admin, trigger(t, a.Admin))
	if u := unitsOf(rep); u.Rendered != 1 || u.Reused != 2 || rep.ClonedRepositories != 1 || rep.ReusedRepositories != 2 {
		t.Fatalf("a push to beta: units %+v, cloned %d, reused %d", u, rep.ClonedRepositories, rep.ReusedRepositories)
	}
	if _, body := get(t, "http://"+a.Docs+"/docs/beta/guide/"); !strings.Contains(body, "Second edition of beta.") {
		t.Fatal("beta's new page is not served")
	}

	// gamma's only page now fails in Hugo: gamma fails alone, and its
	// last good page stays.
	repos["gamma"].Commit(t, map[string]string{"docs/guide.md": "---\nparams: 5\n---\n# gamma\n\nBroken edition.\n"}, "break")
	rep = finishedReport(t, a.Admin, trigger(t, a.Admin))
	if rep.Outcome != report.OutcomePartial || unitsOf(rep).Failed != 1 || unitsOf(rep).Stale != 1 {
		t.Fatalf("a failing unit: outcome %s, units %+v", rep.Outcome, unitsOf(rep))
	}
	for _, r := range rep.Repositories {
		if r.Name == "gamma" && (r.Render == nil || !r.Render.Stale || r.Render.Error == "") {
			t.Fatalf("gamma's render in the report: %+v", r.Render)
		}
	}
	if _, body := get(t, "http://"+a.Docs+"/docs/gamma/guide/"); !strings.Contains(body, "First edition of gamma.") {
		t.Fatal("gamma's last good page is not served")
	}
	if _, body := get(t, "http://"+a.Docs+"/docs/alpha/guide/"); !strings.Contains(body, "First edition of alpha.") {
		t.Fatal("alpha is not served")
	}
	if _, body := get(t, "http://"+a.Admin+"/status"); !strings.Contains(body, "stale: the site shows its last good pages") {
		t.Fatal("/status does not mark gamma stale")
	}

	// A restart keeps the stored units: a push to alpha renders alpha.
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	repos["gamma"].Commit(t, map[string]string{"docs/guide.md": "# gamma\n\nFixed edition of gamma.\n"}, "fix")
	d = startDaemon(t, cfg)
	a = d.addrs
	eventually(t, "/ready after the restart", func() bool { code, _ := get(t, "http://"+a.Admin+"/ready"); return code == 200 })
	eventually(t, "the start-up build after the restart", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return strings.Contains(body, "success") && !strings.Contains(body, StateRunning)
	})
	repos["alpha"].Commit(t, map[string]string{"docs/guide.md": "# alpha\n\nSecond edition of alpha.\n"}, "edit")
	rep = finishedReport(t, a.Admin, trigger(t, a.Admin))
	if u := unitsOf(rep); u.Rendered != 1 || u.Reused != 2 {
		t.Fatalf("a push to alpha after a restart: units %+v", u)
	}
}
