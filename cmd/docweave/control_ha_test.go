package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
)

// roleOf reads a control-plane process's role from its /status page.
func roleOf(admin string) string {
	code, body := httpGet("http://" + admin + "/status")
	switch {
	case code != 200:
		return ""
	case strings.Contains(body, "control plane: leader"):
		return "leader"
	case strings.Contains(body, "control plane: follower"):
		return "follower"
	}
	return ""
}

// TestControlPlaneFailover runs two control-plane processes (`serve` with
// the admin and webhook servers) against one broker: exactly one leads;
// a trigger sent to the other is forwarded to it, and so are build
// queries; when the leader is killed, the other takes the lease over and
// builds on request.
func TestControlPlaneFailover(t *testing.T) {
	broker := listeningBroker(t)
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nFirst.\n"})
	ports := freePorts(t, 8)
	config := func(name string, p []int) (string, string) {
		dir := filepath.Join(t.TempDir(), name)
		cfg := filepath.Join(dir, "docweave.yaml")
		writeFile(t, cfg, fmt.Sprintf(`
repositories:
  - {name: handbook, url: %q}
build: {artifact_store: broker, workspace_dir: %s}
output: {directory: %s}
daemon:
  link_verification: {nats_url: %q}
  sync: {schedule: "0 0 1 1 *"}
  http: {docs_port: %d, webhook_port: %d, admin_port: %d, livereload_port: %d}
`, repo.FileURL(), filepath.Join(dir, "work"), filepath.Join(dir, "site"), authURL(broker), p[0], p[1], p[2], p[3]))
		return cfg, dir
	}
	stageCfg, stageDir := config("stages", ports[:4])
	startProcess(t, stageDir, "stage", "--stages", "discover,clone,join,render,assemble,finish,publishreload", "--metrics-addr", "127.0.0.1:0", "-c", stageCfg)
	cfgA, dirA := config("serve-a", ports[:4])
	cfgB, dirB := config("serve-b", ports[4:])
	procs := map[string]*process{
		fmt.Sprintf("127.0.0.1:%d", ports[2]): startProcess(t, dirA, "serve", "--servers", "admin,webhook", "-c", cfgA),
		fmt.Sprintf("127.0.0.1:%d", ports[6]): startProcess(t, dirB, "serve", "--servers", "admin,webhook", "-c", cfgB),
	}

	var leader, follower string
	for deadline := time.Now().Add(60 * time.Second); leader == "" || follower == ""; {
		leader, follower = "", ""
		for admin := range procs {
			switch roleOf(admin) {
			case "leader":
				if leader != "" {
					t.Fatalf("two processes lead: %s and %s", leader, admin)
				}
				leader = admin
			case "follower":
				follower = admin
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no leader and follower among the control-plane processes (leader %q, follower %q)", leader, follower)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Through the follower: the trigger and the build's status are the
	// leader's (the start-up build, or its follow-up).
	if st := triggerAndWait(t, follower, nil); st.State != "success" && st.State != "skipped" {
		t.Fatalf("build triggered through the follower ended %q", st.State)
	}

	// The leader dies: the follower takes the lease over and builds.
	_ = procs[leader].cmd.Process.Signal(syscall.SIGKILL)
	for deadline := time.Now().Add(60 * time.Second); roleOf(follower) != "leader"; {
		if time.Now().After(deadline) {
			t.Fatal("the follower did not take over after the leader was killed")
		}
		time.Sleep(200 * time.Millisecond)
	}
	head := repo.Commit(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nSecond.\n"}, "edit")
	st := triggerAndWait(t, follower, nil)
	if st.State != "success" || st.Report == nil || len(st.Report.Repositories) != 1 || st.Report.Repositories[0].Commit != head {
		t.Fatalf("build after the takeover: %q %+v", st.State, st.Report)
	}
}
