package daemon

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon/preview"
	"github.com/docweave/docweave/internal/gittest"
)

// measureFarm writes repos repositories of pages pages each: front
// matter, headings, a code block, a table, links to sibling pages and one
// into the next repository.
func measureFarm(t *testing.T, repos, pages int) []*gittest.Repo {
	t.Helper()
	var out []*gittest.Repo
	for r := 0; r < repos; r++ {
		files := map[string]string{}
		for p := 0; p < pages; p++ {
			section := []string{"guide", "reference", "howto", "concepts"}[p%4]
			var b strings.Builder
			fmt.Fprintf(&b, "---\ntitle: \"Page %d of r%02d\"\ntags: [t%d, %s]\n---\n\n# Page %d\n\n", p, r, p%7, section, p)
			for para := 0; para < 6; para++ {
				fmt.Fprintf(&b, "## Part %d\n\nThis part explains step %d of the procedure for page %d. It is long enough to be a paragraph a reader would skim, with a [sibling](../%s/p%03d.md) and [the next repository's page](/r%02d/guide/p000/).\n\n",
					para, para, p, []string{"guide", "reference", "howto", "concepts"}[(p+1)%4], (p+1)%pages, (r+1)%repos)
			}
			b.WriteString("```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n| key | value |\n|---|---|\n| a | 1 |\n| b | 2 |\n")
			files[fmt.Sprintf("docs/%s/p%03d.md", section, p)] = b.String()
		}
		out = append(out, gittest.NewRepo(t, files))
	}
	return out
}

// rssMB is this process's resident memory.
func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

// peakSampler samples the heap in use and the resident memory until
// stopped.
type peakSampler struct {
	stop           chan struct{}
	done           sync.WaitGroup
	heapMB, rssMax float64
}

func samplePeaks() *peakSampler {
	s := &peakSampler{stop: make(chan struct{})}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			s.heapMB = max(s.heapMB, float64(m.HeapInuse)/(1<<20))
			s.rssMax = max(s.rssMax, rssMB())
			select {
			case <-s.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return s
}

func (s *peakSampler) end() (heap, rss float64) {
	close(s.stop)
	s.done.Wait()
	return s.heapMB, s.rssMax
}

// diskOf is what a directory holds: bytes of every file, and bytes of the
// files no other directory shares (one link only) — what the preview
// costs the disk beyond the live site's stored units.
func diskOf(dir string) (files int, all, own int64) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		files++
		all += info.Size()
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink == 1 {
			own += info.Size()
		}
		return nil
	})
	return
}

// within waits up to d for cond, polling every 50 ms.
func within(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// TestMeasurePreviews measures, in one run on a farm of 20 repositories ×
// 50 pages (DOCWEAVE_MEASURE_PREVIEWS=REPOSxPAGES to change it): the cold
// start-up build, a live rebuild after a push to one repository, and a
// preview of one repository's branch, alternating; and each preview's
// disk and memory. Run with DOCWEAVE_MEASURE_PREVIEWS set:
//
//	DOCWEAVE_MEASURE_PREVIEWS=20x50 go test ./daemon -run TestMeasurePreviews -v -count=1
func TestMeasurePreviews(t *testing.T) {
	size := os.Getenv("DOCWEAVE_MEASURE_PREVIEWS")
	if size == "" {
		t.Skip("set DOCWEAVE_MEASURE_PREVIEWS=20x50 to measure previews")
	}
	cfg := daemonConfig(t, "")
	cfg.Repositories = nil
	var repos []*gittest.Repo
	// changeFile is a page of each repository that a change rewrites.
	var changeFiles []string
	if size == "corpus" {
		repos, changeFiles = corpusRepos(t, cfg)
	} else {
		var nRepos, nPages int
		if _, err := fmt.Sscanf(size, "%dx%d", &nRepos, &nPages); err != nil || nRepos < 4 || nPages < 1 {
			t.Fatalf("DOCWEAVE_MEASURE_PREVIEWS=%q: expected corpus, or REPOSxPAGES such as 20x50", size)
		}
		repos = measureFarm(t, nRepos, nPages)
		for i, r := range repos {
			name := fmt.Sprintf("r%02d", i)
			cfg.Repositories = append(cfg.Repositories, config.Repository{Name: name, URL: r.FileURL(),
				OriginalSite: config.OriginalSite{URL: "https://docs.example.com/", Paths: map[string]string{"/" + name + "/": "docs/"}}})
			changeFiles = append(changeFiles, "docs/guide/p000.md")
		}
	}
	nRepos := len(repos)
	cfg.Build.WorkspaceDir = t.TempDir()
	cfg.Daemon.LinkVerification.Enabled = false
	cfg.Daemon.Previews.Enabled = true

	start := time.Now()
	a := startDaemon(t, cfg).addrs
	within(t, 20*time.Minute, "the cold start-up build", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return (strings.Contains(body, "success") || strings.Contains(body, "partial")) && !strings.Contains(body, StateRunning)
	})
	cold := time.Since(start).Seconds()

	var rebuilds, previews, heaps, rsss []float64
	for round := 1; round <= 3; round++ {
		live := repos[round]
		live.Commit(t, map[string]string{path.Join(path.Dir(changeFiles[round]), "changes-of-the-measure.md"): fmt.Sprintf("# Changes\n\nEdition %d.\n", round)}, "edit")
		t0 := time.Now()
		id := trigger(t, a.Admin)
		var bs buildStatus
		within(t, 10*time.Minute, "rebuild "+id, func() bool {
			code, body := get(t, "http://"+a.Admin+"/api/builds/"+id)
			_ = json.Unmarshal([]byte(body), &bs)
			return code == http.StatusOK && bs.State != StateQueued && bs.State != StateRunning
		})
		if bs.State != "success" && bs.State != "partial" {
			t.Fatalf("rebuild %d: %s", round, bs.State)
		}
		rebuilds = append(rebuilds, time.Since(t0).Seconds())

		pr := repos[nRepos-1-round]
		branch := fmt.Sprintf("pr%d", round)
		pr.Git(t, "checkout", "-q", "-b", branch)
		file := changeFiles[nRepos-1-round]
		pr.Commit(t, map[string]string{file: fmt.Sprintf("# Rewritten\n\nRewritten in request %d.\n", round), path.Join(path.Dir(file), "new-in-the-request.md"): "# New\n\nA new page.\n"}, "request")
		pr.Git(t, "checkout", "-q", "main")
		runtime.GC()
		sampler := samplePeaks()
		t0 = time.Now()
		code, body, _ := request(t, http.MethodPost, "http://"+a.Admin+"/api/previews", fmt.Sprintf(`{"repository":%q,"ref":%q}`, cfg.Repositories[nRepos-1-round].Name, branch))
		if code != http.StatusAccepted {
			t.Fatalf("POST: %d %s", code, body)
		}
		var created struct {
			StatusURL string `json:"status_url"`
		}
		_ = json.Unmarshal([]byte(body), &created)
		var st preview.Status
		within(t, 10*time.Minute, "the preview", func() bool {
			_, body := get(t, "http://"+a.Admin+created.StatusURL)
			_ = json.Unmarshal([]byte(body), &st)
			return st.State != preview.StateBuilding
		})
		took := time.Since(t0).Seconds()
		heap, rss := sampler.end()
		if st.State != preview.StateReady {
			t.Fatalf("preview %d: %s %s", round, st.State, st.Error)
		}
		previews = append(previews, took)
		heaps, rsss = append(heaps, heap), append(rsss, rss)
		files, all, own := diskOf(filepath.Join(previewsDir(cfg), st.ID))
		t.Logf("round %d: rebuild %.2fs, preview %.2fs (steps %v), %d pages added, %d changed, %d links broken; preview dir %d files, %.1f MB in all, %.2f MB its own; peak heap in use %.0f MB, peak RSS %.0f MB",
			round, rebuilds[len(rebuilds)-1], took, st.TimingsMS, len(st.Changes.Added), len(st.Changes.Changed), len(st.LinksBroken), files, float64(all)/(1<<20), float64(own)/(1<<20), heap, rss)
	}
	t.Logf("%s: cold build %.2fs; live one-repository rebuild median %.2fs (%.0f%% of cold); preview ready median %.2fs (%.0f%% of cold, %.2f× the rebuild); peak heap during a preview %.0f MB, peak RSS %.0f MB",
		size, cold, median(rebuilds), 100*median(rebuilds)/cold, median(previews), 100*median(previews)/cold, median(previews)/median(rebuilds), median(heaps), median(rsss))
}

// corpusRepos clones the real documentation snapshots of /work/corpus (or
// $DOCWEAVE_CORPUS) into working copies a test can commit to, and
// configures them; it returns them with a page of each to rewrite.
func corpusRepos(t *testing.T, cfg *config.Config) ([]*gittest.Repo, []string) {
	t.Helper()
	dir := os.Getenv("DOCWEAVE_CORPUS")
	if dir == "" {
		dir = "/work/corpus"
	}
	corpus := []struct{ name, snapshot, root, page string }{
		{"prometheus", "prometheus-docs", "docs", "docs/concepts/data_model.md"},
		{"nats", "nats-docs", ".", "README.md"},
		{"httpx", "httpx", "docs", "docs/quickstart.md"},
		{"babel", "babel-website", "docs", "docs/usage.md"},
		{"mkdocs-material", "mkdocs-material", "docs", "docs/getting-started.md"},
		{"argo-cd", "argo-cd", "docs", "docs/getting_started.md"},
	}
	var repos []*gittest.Repo
	var pages []string
	for _, c := range corpus {
		work := filepath.Join(t.TempDir(), c.name)
		gittest.Git(t, ".", "clone", "-q", filepath.Join(dir, c.snapshot+".git"), work)
		r := gittest.Open(work)
		if cur := r.Git(t, "branch", "--show-current"); cur != "main" {
			r.Git(t, "checkout", "-q", "-b", "main")
		}
		repos = append(repos, r)
		pages = append(pages, c.page)
		cfg.Repositories = append(cfg.Repositories, config.Repository{Name: c.name, URL: r.FileURL(), Branch: "main", Paths: []string{c.root}})
	}
	return repos, pages
}
