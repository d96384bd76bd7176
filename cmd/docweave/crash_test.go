package main

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
)

// crashRounds is how many times the crash test kills the daemon.
const crashRounds = 10

var editionMark = regexp.MustCompile(`Edition (\d+)\.`)

// crashSite is what the crash test reads of a daemon's output directory.
type crashSite struct {
	dir   string
	pages []string // published pages, relative to public/
}

// edition reads every page of the published site while nothing writes it
// and returns the one edition they all carry; a site mixing editions (not
// a whole build) or missing pages is an error.
func (s crashSite) edition() (int, error) {
	found := -1
	for _, p := range s.pages {
		data, err := os.ReadFile(filepath.Join(s.dir, "public", p))
		if err != nil {
			return 0, fmt.Errorf("page %s: %w", p, err)
		}
		m := editionMark.FindSubmatch(data)
		if m == nil {
			return 0, fmt.Errorf("page %s carries no edition", p)
		}
		e, _ := strconv.Atoi(string(m[1]))
		if found >= 0 && e != found {
			return 0, fmt.Errorf("the site mixes editions %d and %d (%s): not one build", found, e, p)
		}
		found = e
	}
	return found, nil
}

// servedEdition asks the docs server for one page's edition; -1 when it
// does not answer with one.
func servedEdition(docs, page string) int {
	code, body := httpGet(docs + page)
	if code != http.StatusOK {
		return -1
	}
	m := editionMark.FindStringSubmatch(body)
	if m == nil {
		return -1
	}
	e, _ := strconv.Atoi(m[1])
	return e
}

// TestDaemonSurvivesKillsAtRandomPointsOfABuild kills the daemon with
// SIGKILL at a random point of a build, crashRounds times, and restarts it
// each time. After every kill the published site is one whole build, never
// older than the last one seen; after every restart the daemon reaches the
// latest commit; and once a newer commit is published, a late redelivery
// of the killed build's work (ack wait 2 s) never takes the site back.
func TestDaemonSurvivesKillsAtRandomPointsOfABuild(t *testing.T) {
	names := []string{"alpha", "beta", "gamma"}
	repos := map[string]*gittest.Repo{}
	files := func(edition int) map[string]string {
		out := map[string]string{}
		for i := 0; i < 4; i++ {
			out[fmt.Sprintf("docs/page%d.md", i)] = fmt.Sprintf("# Page %d\n\nEdition %d.\n", i, edition)
		}
		return out
	}
	dir := t.TempDir()
	ports := freePorts(t, 5)
	var yaml strings.Builder
	yaml.WriteString("repositories:\n")
	site := crashSite{dir: filepath.Join(dir, "site")}
	for _, n := range names {
		repos[n] = gittest.NewRepo(t, files(0))
		fmt.Fprintf(&yaml, "  - {name: %s, url: %q}\n", n, repos[n].FileURL())
		for i := 0; i < 4; i++ {
			site.pages = append(site.pages, fmt.Sprintf("docs/%s/page%d/index.html", n, i))
		}
	}
	fmt.Fprintf(&yaml, `output: {directory: %s}
build: {ack_wait: 2s}
daemon:
  http: {docs_port: %d, webhook_port: %d, admin_port: %d, livereload_port: %d}
  embedded_broker: {port: %d}
  sync: {schedule: "0 0 1 1 *"}
  link_verification: {enabled: false}
`, site.dir, ports[0], ports[1], ports[2], ports[3], ports[4])
	cfg := filepath.Join(dir, "daemon.yaml")
	writeFile(t, cfg, yaml.String())
	admin := fmt.Sprintf("127.0.0.1:%d", ports[2])
	docs := fmt.Sprintf("http://127.0.0.1:%d", ports[0])

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 7))
	t.Logf("seed %d", seed)

	start := func() *process {
		p := startProcess(t, dir, "daemon", "-c", cfg)
		deadline := time.Now().Add(60 * time.Second)
		for {
			if code, _ := httpGet("http://" + admin + "/health"); code == http.StatusOK {
				return p
			}
			if time.Now().After(deadline) {
				t.Fatalf("the daemon did not come up:\n%s", lastLines(p.stderr.String(), 20))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	kill := func(p *process) {
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.done
		p.done <- nil // the cleanup waits on it too
	}
	waitEdition := func(edition int, within time.Duration) (time.Duration, bool) {
		began := time.Now()
		last := -1
		for time.Since(began) < within {
			e := servedEdition(docs, "/docs/gamma/page3/")
			if e >= 0 && e < last {
				t.Errorf("the served site went back from edition %d to %d", last, e)
			}
			last = max(last, e)
			if e == edition {
				return time.Since(began), true
			}
			time.Sleep(20 * time.Millisecond)
		}
		return time.Since(began), false
	}

	d := start()
	if _, ok := waitEdition(0, 60*time.Second); !ok {
		t.Fatal("the start-up build never published")
	}
	// A full build's duration bounds where the kills land.
	for _, n := range names {
		repos[n].Commit(t, files(1), "edition 1")
	}
	began := time.Now()
	waitBuildDone(t, admin, triggerBuild(t, admin))
	full := time.Since(began)
	published := 1
	var worst time.Duration
	regressions, restarts := 0, 0
	for round := 0; round < crashRounds; round++ {
		killed, newer := 2+2*round, 3+2*round
		for _, n := range names {
			repos[n].Commit(t, files(killed), fmt.Sprintf("edition %d", killed))
		}
		triggerBuild(t, admin)
		time.Sleep(time.Duration(rng.Int64N(int64(full + full/2))))
		kill(d)
		e, err := site.edition()
		switch {
		case err != nil:
			t.Fatalf("round %d: after the kill: %v", round, err)
		case e < published:
			regressions++
			t.Errorf("round %d: after the kill the site is edition %d, older than the published %d", round, e, published)
		}
		published = max(published, e)

		restarted := time.Now()
		d = start()
		restarts++
		if _, ok := waitEdition(killed, 60*time.Second); !ok {
			t.Fatalf("round %d: the restarted daemon never served edition %d:\n%s", round, killed, lastLines(d.stderr.String(), 20))
		}
		worst = max(worst, time.Since(restarted))
		// A newer commit is built and published; the killed build's work,
		// if it were finished late (ack wait 2 s), would take the site
		// back to the killed edition within the next seconds.
		for _, n := range names {
			repos[n].Commit(t, files(newer), fmt.Sprintf("edition %d", newer))
		}
		waitBuildDone(t, admin, triggerBuild(t, admin))
		if _, ok := waitEdition(newer, 30*time.Second); !ok {
			t.Fatalf("round %d: edition %d was never served", round, newer)
		}
		for watch := time.Now(); time.Since(watch) < 4*time.Second; time.Sleep(50 * time.Millisecond) {
			if e := servedEdition(docs, "/docs/alpha/page0/"); e != newer {
				regressions++
				t.Errorf("round %d: after edition %d was published the site is edition %d", round, newer, e)
				break
			}
		}
		published = newer
	}
	kill(d)
	if e, err := site.edition(); err != nil || e != published {
		t.Fatalf("at the end: edition %d (%v), want %d", e, err, published)
	}
	t.Logf("crash test: %d kills at random points of a %s build, %d clean restarts, worst recovery %s (restart to the latest commit served), %d older-over-newer publishes",
		crashRounds, full.Round(time.Millisecond), restarts, worst.Round(time.Millisecond), regressions)
}
