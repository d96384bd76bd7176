package daemon

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/httpsrv/admin"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/stages"
)

// runSplit runs stage or serve processes in this process until the test
// ends; it returns once each is ready.
func runSplit(t *testing.T, cfg *config.Config, stageNames []string, servers []string) Addresses {
	t.Helper()
	a, _ := runStoppable(t, cfg, stageNames, servers)
	return a
}

// runStoppable is runSplit, with a function that stops the process
// before the test ends (its handlers in flight finish).
func runStoppable(t *testing.T, cfg *config.Config, stageNames []string, servers []string) (Addresses, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Addresses, 1)
	done := make(chan error, 1)
	opts := Options{Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.ErrorLevel), Ready: func(a Addresses) { ready <- a }}
	go func() {
		if stageNames != nil {
			done <- RunStages(ctx, cfg, stageNames, "", opts)
		} else {
			done <- RunServers(ctx, cfg, servers, opts)
		}
	}()
	select {
	case a := <-ready:
		var once sync.Once
		stop := func() { once.Do(func() { cancel(); <-done }) }
		t.Cleanup(stop)
		return a, stop
	case err := <-done:
		cancel()
		t.Fatalf("process %v%v did not start: %v", stageNames, servers, err)
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatal("process did not start")
	}
	return Addresses{}, nil
}

// processConfig is one process's configuration of a split site: its own
// output directory and workspace.
func processConfig(t *testing.T, base *config.Config) *config.Config {
	c := *base
	dir := t.TempDir()
	c.Output.Directory = filepath.Join(dir, "site")
	c.Daemon.Storage.OutputDir = c.Output.Directory
	c.Build.WorkspaceDir = filepath.Join(dir, "work")
	return &c
}

// askBuild asks the admin API for a build and returns its ID, once a
// process leads (503 until then).
func askBuild(t *testing.T, adminAddr string) string {
	t.Helper()
	var out admin.TriggerResponse
	eventually(t, "the admin API to accept a build", func() bool {
		resp, err := http.Post("http://"+adminAddr+"/api/build/trigger", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			return false
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.BuildID == "" {
			t.Fatalf("trigger: %d %v", resp.StatusCode, err)
		}
		return true
	})
	return out.BuildID
}

// readBuild reads a build from the admin API.
func readBuild(t *testing.T, adminAddr, id string) admin.BuildStatus {
	t.Helper()
	code, body := get(t, "http://"+adminAddr+"/api/builds/"+id)
	if code != http.StatusOK {
		t.Fatalf("build %s: %d %s", id, code, body)
	}
	var b admin.BuildStatus
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		t.Fatalf("build %s: %v", id, err)
	}
	return b
}

// A split deployment whose stage lists leave assemble (and publishreload)
// out, as the lists of a release before assemble did: the build does not
// run forever. It fails
// within build.stage_timeout with STAGE_UNAVAILABLE naming assemble and
// the subjects its work waits on; /status and /metrics show assemble with
// no process. Once a process runs assemble, the next build succeeds, and
// the abandoned build's site is never published.
func TestABuildWaitingOnAStageNobodyRunsFailsNamingIt(t *testing.T) {
	cluster := natstest.StartCluster(t, 1)
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nThe guide.\n"})
	base := daemonConfig(t, repo.FileURL())
	base.Broker.URL = cluster.URLs()
	base.Site.Name = "watched"
	base.Build.ArtifactStore = config.ArtifactStoreBroker
	base.Build.StageTimeout = 3 * time.Second
	base.Build.AckWait = 3 * time.Second

	runSplit(t, processConfig(t, base), []string{stages.Discover, stages.Clone, stages.Join}, nil)
	runSplit(t, processConfig(t, base), []string{stages.Render, stages.Finish}, nil)
	control := runSplit(t, processConfig(t, base), nil, []string{ServerAdmin})

	// The start-up build, and the one asked for now (its follow-up), wait
	// on assemble, which nobody runs.
	id := askBuild(t, control.Admin)
	var rec admin.BuildStatus
	eventually(t, "the build to fail", func() bool {
		rec = readBuild(t, control.Admin, id)
		return rec.State == report.OutcomeFailed
	})
	if rec.Report == nil || rec.FinishedAt == nil {
		t.Fatalf("build %s: %+v", id, rec)
	}
	var issue *report.Issue
	for i := range rec.Report.Issues {
		if rec.Report.Issues[i].Code == report.CodeStageUnavailable {
			issue = &rec.Report.Issues[i]
		}
	}
	if issue == nil || issue.Stage != stages.Assemble || !strings.Contains(issue.Message, "docweave.build.content_ready") ||
		!strings.Contains(issue.Message, "docweave stage assemble") {
		t.Fatalf("the failed build's issues: %+v", rec.Report.Issues)
	}
	waited := rec.FinishedAt.Sub(rec.RequestedAt)
	t.Logf("STAGE_UNAVAILABLE %s after the request (build.stage_timeout %s)", waited.Round(100*time.Millisecond), base.Build.StageTimeout)
	if waited < base.Build.StageTimeout {
		t.Fatalf("failed after %s, before build.stage_timeout", waited)
	}

	_, page := get(t, "http://"+control.Admin+"/status")
	if !strings.Contains(page, "<td>assemble</td><td><strong>none</strong></td>") || !strings.Contains(page, "<td>render</td><td>1</td>") {
		t.Fatalf("/status does not show assemble run by none and render by 1:\n%s", page)
	}
	if _, body := get(t, "http://"+control.Admin+"/metrics"); !strings.Contains(body, `docweave_stage_processes{stage="assemble"} 0`) {
		t.Fatalf("/metrics lacks assemble at 0 processes")
	}
	// `docweave status` reads the same from the broker.
	view, err := ReadControlView(context.Background(), processConfig(t, base))
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]int{}
	for _, s := range view.Stages {
		live[s.Name] = s.Processes
	}
	if len(view.Processes) != 3 || view.Leader == "" || live[stages.Assemble] != 0 || live[stages.Render] != 1 || !slices.Contains(view.Needed, stages.Assemble) {
		t.Fatalf("control view: leader %q, %d processes, stages %v, needed %v", view.Leader, len(view.Processes), live, view.Needed)
	}

	// With assemble (and publishreload beside it) running, the abandoned
	// build's work resumes but its site is not published; the next build
	// publishes.
	assembler := processConfig(t, base)
	runSplit(t, assembler, []string{stages.Assemble, stages.PublishReload}, nil)
	eventually(t, "a build to succeed once assemble runs", func() bool {
		rec := readBuild(t, control.Admin, askBuild(t, control.Admin))
		for rec.State == StateQueued || rec.State == StateRunning {
			time.Sleep(100 * time.Millisecond)
			rec = readBuild(t, control.Admin, rec.ID)
		}
		return rec.State == report.OutcomeSuccess
	})
	published, err := os.ReadFile(filepath.Join(assembler.Output.Directory, "public", "docs", "handbook", "guide", "index.html"))
	if err != nil || !strings.Contains(string(published), "The guide.") {
		t.Fatalf("the site of the build that succeeded is not published: %v", err)
	}
}
