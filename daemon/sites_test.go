package daemon

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
)

// siteOnCluster is the configuration of one site whose daemon works on a
// shared cluster.
func siteOnCluster(t testing.TB, cluster *natstest.Cluster, name string, pages int) (*config.Config, *gittest.Repo) {
	t.Helper()
	files := map[string]string{"docs/_index.md": fmt.Sprintf("---\ntitle: %s\n---\nThe %s site.\n", name, name)}
	for i := 0; i < pages; i++ {
		files[fmt.Sprintf("docs/page%d.md", i)] = fmt.Sprintf("---\ntitle: %s page %d\n---\nText %d of %s.\n", name, i, i, name)
	}
	repo := gittest.NewRepo(t, files)
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Site.Name = name
	cfg.Broker.URL = cluster.URLs()
	cfg.Build.StreamReplicas = 3
	cfg.Repositories[0].Name = name + "-docs"
	return cfg, repo
}

// Two sites share one three-node cluster: both build, and every trigger
// reaches only its own site: its own stages, its own build records, its
// own subscribers.
func TestTwoSitesOnOneCluster(t *testing.T) {
	cluster := natstest.StartCluster(t, 3)
	alphaCfg, alphaRepo := siteOnCluster(t, cluster, "alpha", 3)
	betaCfg, _ := siteOnCluster(t, cluster, "beta", 3)

	// A subscriber of each site's build requests, on the cluster.
	nc, err := nats.Connect(cluster.URLs())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var mu sync.Mutex
	requested := map[string][]string{}
	for _, site := range []string{"alpha", "beta"} {
		site := site
		if _, err := nc.Subscribe(site+"."+events.SubjectBuildRequested, func(m *nats.Msg) {
			ev, err := events.Decode(events.SubjectBuildRequested, m.Data)
			if err == nil {
				mu.Lock()
				requested[site] = append(requested[site], ev.Head().BuildID)
				mu.Unlock()
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	nc.Flush()

	alpha := startDaemon(t, alphaCfg)
	beta := startDaemon(t, betaCfg)
	for name, d := range map[string]*runningDaemon{"alpha": alpha, "beta": beta} {
		d := d
		eventually(t, name+"'s start-up build", func() bool {
			code, body := get(t, "http://"+d.addrs.Docs+"/docs/"+name+"-docs/page2/")
			return code == 200 && strings.Contains(body, "Text 2 of "+name+".")
		})
	}
	if code, _ := get(t, "http://"+beta.addrs.Docs+"/docs/alpha-docs/page2/"); code == 200 {
		t.Fatal("beta serves alpha's pages")
	}

	// A trigger of alpha reaches alpha only.
	alphaRepo.Commit(t, map[string]string{"docs/page0.md": "---\ntitle: alpha page 0\n---\nEdited.\n"}, "edit")
	id := trigger(t, alpha.addrs.Admin)
	if st := waitBuild(t, alpha.addrs.Admin, id); st.State != "success" {
		t.Fatalf("alpha's build: %+v", st)
	}
	if code, _ := get(t, "http://"+beta.addrs.Admin+"/api/builds/"+id); code != http.StatusNotFound {
		t.Fatalf("beta knows alpha's build %s (%d)", id, code)
	}
	eventually(t, "alpha to serve the edit", func() bool {
		_, body := get(t, "http://"+alpha.addrs.Docs+"/docs/alpha-docs/page0/")
		return strings.Contains(body, "Edited.")
	})
	bid := trigger(t, beta.addrs.Admin)
	if st := waitBuild(t, beta.addrs.Admin, bid); st.State != "skipped" {
		t.Fatalf("beta's build with nothing changed: %+v", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if !contains(requested["alpha"], id) || contains(requested["beta"], id) {
		t.Fatalf("alpha's build %s was requested on %v", id, requested)
	}
	if !contains(requested["beta"], bid) || contains(requested["alpha"], bid) {
		t.Fatalf("beta's build %s was requested on %v", bid, requested)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// BenchmarkSitesOnOneCluster measures builds of two sites on one
// three-node cluster, each alone and both at once. Before every build a page
// of the site's one repository changes, so every build clones the
// repository and renders its unit afresh (200 pages); the time runs from
// the trigger to the build's end.
func BenchmarkSitesOnOneCluster(b *testing.B) {
	cluster := natstest.StartCluster(b, 3)
	daemons := map[string]*runningDaemon{}
	repos := map[string]*gittest.Repo{}
	for _, name := range []string{"alpha", "beta"} {
		cfg, repo := siteOnCluster(b, cluster, name, 200)
		cfg.Daemon.LinkVerification.Enabled = false
		d := startDaemon(b, cfg)
		eventually(b, name+"'s start-up build", func() bool {
			code, _ := get(b, "http://"+d.addrs.Admin+"/ready")
			return code == 200
		})
		daemons[name], repos[name] = d, repo
	}
	edits := 0
	edit := func(name string) {
		edits++
		repos[name].Commit(b, map[string]string{"docs/page0.md": fmt.Sprintf("---\ntitle: %s page 0\n---\nEdit %d.\n", name, edits)}, "edit")
	}
	// build runs on any goroutine: it reports a failed build as an error
	// instead of stopping the benchmark from there.
	build := func(name string) (time.Duration, error) {
		start := time.Now()
		admin := daemons[name].addrs.Admin
		resp, err := http.Post("http://"+admin+"/api/build/trigger", "application/json", strings.NewReader(`{}`))
		if err != nil {
			return 0, err
		}
		var acc struct {
			BuildID string `json:"build_id"`
		}
		err = json.NewDecoder(resp.Body).Decode(&acc)
		resp.Body.Close()
		if err != nil {
			return 0, err
		}
		for {
			resp, err := http.Get("http://" + admin + "/api/builds/" + acc.BuildID)
			if err != nil {
				return 0, err
			}
			var st buildStatus
			_ = json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
			switch st.State {
			case StateQueued, StateRunning, "":
				time.Sleep(20 * time.Millisecond)
				continue
			case "success":
				return time.Since(start), nil
			}
			return 0, fmt.Errorf("%s: build %s ended %s", name, acc.BuildID, st.State)
		}
	}
	for _, name := range []string{"alpha", "beta"} {
		b.Run(name+"-alone", func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				edit(name)
				b.StartTimer()
				d, err := build(name)
				if err != nil {
					b.Fatal(err)
				}
				total += d
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s/build")
		})
	}
	b.Run("together", func(b *testing.B) {
		var alpha, beta, wall time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			edit("alpha")
			edit("beta")
			b.StartTimer()
			start := time.Now()
			var wg sync.WaitGroup
			var da, db time.Duration
			var ea, eb error
			wg.Add(2)
			go func() { defer wg.Done(); da, ea = build("alpha") }()
			go func() { defer wg.Done(); db, eb = build("beta") }()
			wg.Wait()
			if ea != nil || eb != nil {
				b.Fatal(ea, eb)
			}
			alpha, beta, wall = alpha+da, beta+db, wall+time.Since(start)
		}
		n := float64(b.N)
		b.ReportMetric(alpha.Seconds()/n, "alpha-s/build")
		b.ReportMetric(beta.Seconds()/n, "beta-s/build")
		b.ReportMetric(wall.Seconds()/n, "wall-s")
	})
}
