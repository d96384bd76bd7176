package discovery

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/forgetest"
)

// BenchmarkDiscover200 measures issue 20's discovery figure: one
// organisation of 200 repositories (two in three with docs/) on each
// forge's API served on loopback, answering at once and with 50 ms of
// latency per request, like a forge across the internet. Reported per scan: the time from start
// to the list of repositories and the API requests it took — cold (no
// previous set: listing pages plus one path check per repository) and warm
// (the previous set: listing pages only).
func BenchmarkDiscover200(b *testing.B) {
	for _, c := range []struct {
		typ     string
		latency time.Duration
	}{
		{forgetest.GitHub, 0}, {forgetest.GitLab, 0}, {forgetest.Forgejo, 0},
		{forgetest.GitHub, 50 * time.Millisecond}, {forgetest.GitLab, 50 * time.Millisecond}, {forgetest.Forgejo, 50 * time.Millisecond},
	} {
		typ := c.typ
		b.Run(fmt.Sprintf("%s/latency-%s", typ, c.latency), func(b *testing.B) {
			srv := forgetest.New(b, typ, forgetest.Options{Token: token, Latency: c.latency})
			want := 0
			for i := range 200 {
				r := forgetest.Repo{Owner: "acme", Name: fmt.Sprintf("service-%03d", i), CloneURL: fmt.Sprintf("https://git.example.com/acme/service-%03d.git", i)}
				if i%3 != 0 {
					r.Paths, want = []string{"docs"}, want+1
				}
				srv.Add(r)
			}
			cfg := configFor(srv, "acme")
			s := scanner()
			var cold, warm time.Duration
			var coldReq, warmReq int
			for b.Loop() {
				start := time.Now()
				first := s.Scan(context.Background(), cfg, nil)
				cold += time.Since(start)
				start = time.Now()
				second := s.Scan(context.Background(), cfg, first)
				warm += time.Since(start)
				if len(first.Forges[0].Repositories) != want || len(second.Forges[0].Repositories) != want {
					b.Fatalf("took %d and %d repositories, want %d", len(first.Forges[0].Repositories), len(second.Forges[0].Repositories), want)
				}
				coldReq, warmReq = first.Forges[0].Requests, second.Forges[0].Requests
			}
			n := float64(b.N)
			b.ReportMetric(cold.Seconds()*1000/n, "cold-ms")
			b.ReportMetric(float64(coldReq), "cold-requests")
			b.ReportMetric(warm.Seconds()*1000/n, "warm-ms")
			b.ReportMetric(float64(warmReq), "warm-requests")
		})
	}
}
