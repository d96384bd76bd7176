package daemon

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

// BenchmarkWebhookToServedPage measures issue 5's figures on 50 repositories
// served over Git smart HTTP: the time from a trigger to the skip decision
// when nothing changed, and from a signed GitHub push webhook (one
// repository changed) to the new text being served by the docs server.
//
//	go test -run '^$' -bench WebhookToServedPage -benchtime 5x ./daemon
func BenchmarkWebhookToServedPage(b *testing.B) {
	const repos, pages = 50, 5
	srv := gittest.NewHTTPServer(b, gittest.HTTPOptions{})
	var all []*gittest.Repo
	var urls []string
	cfg := config.Default()
	for r := 0; r < repos; r++ {
		files := map[string]string{}
		for p := 0; p < pages; p++ {
			files[fmt.Sprintf("docs/p%d.md", p)] = fmt.Sprintf("---\ntitle: R%d P%d\n---\nText %d-%d.\n", r, p, r, p)
		}
		repo := gittest.NewRepo(b, files)
		all = append(all, repo)
		url := srv.Add(b, fmt.Sprintf("r%02d", r), repo)
		urls = append(urls, url)
		cfg.Repositories = append(cfg.Repositories, config.Repository{Name: fmt.Sprintf("r%02d", r), URL: url})
	}
	base := daemonConfig(b, urls[0])
	cfg.Mode, cfg.Output, cfg.Daemon = base.Mode, base.Output, base.Daemon
	cfg.Daemon.LinkVerification.Enabled = false
	d := startDaemon(b, &cfg)
	a := d.addrs
	eventually(b, "/ready", func() bool { code, _ := get(b, "http://"+a.Admin+"/ready"); return code == 200 })
	eventually(b, "the start-up build", func() bool {
		_, body := get(b, "http://"+a.Admin+"/status")
		return !strings.Contains(body, StateRunning) && !strings.Contains(body, StateQueued)
	})

	var skipTotal, pushTotal time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if st := waitBuild(b, a.Admin, trigger(b, a.Admin)); st.State != "skipped" {
			b.Fatalf("unchanged trigger ended %q", st.State)
		}
		skipTotal += time.Since(start)

		k := i % repos
		text := fmt.Sprintf("Edition %d.", i)
		all[k].Commit(b, map[string]string{"docs/p0.md": "---\ntitle: R P0\n---\n" + text + "\n"}, "edit")
		start = time.Now()
		code, body := postWebhook(b, "http://"+a.Webhook+"/webhooks/github", pushPayload(urls[k], "refs/heads/main"), githubSecret)
		if code != http.StatusAccepted {
			b.Fatalf("webhook: %d %s", code, body)
		}
		page := fmt.Sprintf("http://%s/docs/r%02d/p0/", a.Docs, k)
		for {
			if _, body := get(b, page); strings.Contains(body, text) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		pushTotal += time.Since(start)
		eventually(b, "the build to settle", func() bool {
			_, body := get(b, "http://"+a.Admin+"/status")
			return !strings.Contains(body, StateRunning) && !strings.Contains(body, StateQueued)
		})
	}
	b.ReportMetric(float64(skipTotal.Milliseconds())/float64(b.N), "skip-decision-ms")
	b.ReportMetric(float64(pushTotal.Milliseconds())/float64(b.N), "webhook-to-page-ms")
}
