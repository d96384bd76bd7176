package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/docweave/docweave/bench/farm"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon"
	"github.com/docweave/docweave/report"
	_ "github.com/docweave/docweave/stages/all" // the daemon measured here runs every stage in process
)

// daemonSamples are the daemon's figures at one size.
type daemonSamples struct {
	NoChange   []float64 // seconds from trigger to the skipped decision
	OneChanged []float64 // seconds from trigger to the published rebuild
	HeapMB     []float64 // live heap after each one-changed rebuild (after GC)
	RSSMB      []float64 // resident memory of this process after each rebuild
	Reused     []int     // repositories reused without a clone, per rebuild
}

// daemonFigures runs the daemon in this process on the farm (random ports,
// embedded broker, link verification off so that only the rebuild is
// timed), waits for its start-up build, then times `repeat` triggers with
// nothing changed and `builds` triggers after a commit to one repository,
// through the admin API as an operator or a webhook would.
func (f *sizeFarm) daemonFigures(ctx context.Context, repeat, builds int) (daemonSamples, error) {
	var out daemonSamples
	cfg := f.daemonConfig()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	ready := make(chan daemon.Addresses, 1)
	done := make(chan error, 1)
	go func() {
		done <- daemon.Run(runCtx, cfg, daemon.Options{Log: f.opts.Log, Ready: func(a daemon.Addresses) { ready <- a }})
	}()
	var addrs daemon.Addresses
	select {
	case addrs = <-ready:
	case err := <-done:
		return out, fmt.Errorf("daemon on %s did not start: %v", f.size, err)
	case <-ctx.Done():
		return out, ctx.Err()
	}
	defer func() { cancel(); <-done }()
	admin := &adminClient{base: "http://" + addrs.Admin, http: &http.Client{Timeout: 30 * time.Second}}

	// A trigger during the start-up build joins its follow-up; once that
	// one is decided, the start-up build has finished too.
	if _, _, err := admin.triggerAndWait(ctx); err != nil {
		return out, fmt.Errorf("daemon on %s: start-up build: %w", f.size, err)
	}
	for i := 0; i < repeat; i++ {
		st, took, err := admin.triggerAndWait(ctx)
		if err != nil {
			return out, fmt.Errorf("daemon on %s: no-change trigger %d: %w", f.size, i, err)
		}
		if st.State != report.OutcomeSkipped {
			return out, fmt.Errorf("daemon on %s: no-change trigger %d ended %q, not skipped (%s)", f.size, i, st.State, st.SkipReason)
		}
		out.NoChange = append(out.NoChange, took.Seconds())
	}
	for i := 0; i < builds; i++ {
		repo := f.repos[i%len(f.repos)]
		if err := farm.Change(repo, i+1); err != nil {
			return out, err
		}
		st, took, err := admin.triggerAndWait(ctx)
		if err != nil {
			return out, fmt.Errorf("daemon on %s: rebuild %d after a change to %s: %w", f.size, i, repo.Name, err)
		}
		if st.State != report.OutcomeSuccess || st.Report == nil {
			return out, fmt.Errorf("daemon on %s: rebuild %d after a change to %s ended %q", f.size, i, repo.Name, st.State)
		}
		reused := 0
		for _, r := range st.Report.Repositories {
			if r.Reused {
				reused++
			}
		}
		out.OneChanged = append(out.OneChanged, took.Seconds())
		out.Reused = append(out.Reused, reused)
		out.HeapMB = append(out.HeapMB, liveHeapMB())
		out.RSSMB = append(out.RSSMB, residentMB())
	}
	return out, nil
}

// daemonConfig is a daemon configuration built in code: ports 0 (free
// ports), no scheduled sync during the run, link verification off.
func (f *sizeFarm) daemonConfig() *config.Config {
	cfg := config.Default()
	cfg.Mode = config.ModeDaemon
	for _, r := range f.repos {
		cfg.Repositories = append(cfg.Repositories, config.Repository{Name: r.Name, URL: f.git.URL(r.Name), Paths: []string{"docs"}})
	}
	dir := filepath.Join(f.work, "daemon")
	cfg.Build.WorkspaceDir = filepath.Join(dir, "workspace")
	cfg.Build.CloneConcurrency = f.opts.CloneConcurrency
	cfg.Output.Directory = filepath.Join(dir, "site")
	cfg.Daemon.Storage.OutputDir = cfg.Output.Directory
	cfg.Daemon.HTTP = config.HTTP{LiveReloadEnabled: true}
	cfg.Daemon.Sync.Schedule = "0 0 1 1 *"
	cfg.Daemon.LinkVerification.Enabled = false
	cfg.Generator.Title = benchTitle
	return &cfg
}

// liveHeapMB is the live heap after two forced collections: what the
// process keeps between builds.
func liveHeapMB() float64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// residentMB is this process's resident set now (0 where /proc is
// missing): unlike the live heap it includes memory the Go runtime has not
// yet returned to the system, and anything allocated outside the heap.
func residentMB() float64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseFloat(fields[1], 64)
	return pages * float64(os.Getpagesize()) / (1 << 20)
}

// adminClient drives a daemon's admin API.
type adminClient struct {
	base string
	http *http.Client
}

// buildStatus is the part of GET /api/builds/{id} the bench reads.
type buildStatus struct {
	State      string         `json:"state"`
	SkipReason string         `json:"skip_reason"`
	Report     *report.Report `json:"report"`
}

// triggerAndWait requests a build and polls its status every millisecond
// until it is decided; it returns the status and the time from the request
// to the moment the decision was visible.
func (a *adminClient) triggerAndWait(ctx context.Context) (buildStatus, time.Duration, error) {
	start := time.Now()
	resp, err := a.http.Post(a.base+"/api/build/trigger", "application/json", strings.NewReader(`{"reason":"bench"}`))
	if err != nil {
		return buildStatus{}, 0, fmt.Errorf("trigger: %w", err)
	}
	var accepted struct {
		BuildID string `json:"build_id"`
	}
	err = json.NewDecoder(resp.Body).Decode(&accepted)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || err != nil || accepted.BuildID == "" {
		return buildStatus{}, 0, fmt.Errorf("trigger answered %d (%v)", resp.StatusCode, err)
	}
	for {
		st, err := a.status(accepted.BuildID)
		if err != nil {
			return buildStatus{}, 0, err
		}
		if st.State != daemon.StateQueued && st.State != daemon.StateRunning && st.State != "" {
			return st, time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return buildStatus{}, 0, fmt.Errorf("build %s: %w", accepted.BuildID, ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

func (a *adminClient) status(id string) (buildStatus, error) {
	resp, err := a.http.Get(a.base + "/api/builds/" + id)
	if err != nil {
		return buildStatus{}, fmt.Errorf("build %s status: %w", id, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return buildStatus{}, fmt.Errorf("build %s status: %w", id, err)
	}
	if resp.StatusCode == http.StatusNotFound {
		return buildStatus{}, nil // recorded a moment after the trigger answered
	}
	if resp.StatusCode != http.StatusOK {
		return buildStatus{}, fmt.Errorf("build %s status: %d %s", id, resp.StatusCode, tail(string(body), 300))
	}
	var st buildStatus
	if err := json.Unmarshal(body, &st); err != nil {
		return buildStatus{}, fmt.Errorf("build %s status: %w", id, err)
	}
	return st, nil
}
