package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/gittest"
)

// freePorts returns n distinct ports that were free a moment ago.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var held []net.Listener
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range held {
		l.Close()
	}
	return ports
}

func daemonConfigFile(t *testing.T, dir string, ports []int, repoURL string) string {
	t.Helper()
	cfg := filepath.Join(dir, "daemon.yaml")
	writeFile(t, cfg, fmt.Sprintf(`
repositories:
  - {name: handbook, url: %q}
output: {directory: %s}
daemon:
  http: {docs_port: %d, webhook_port: %d, admin_port: %d, livereload_port: %d}
  embedded_broker: {port: %d}
  sync: {schedule: "0 0 1 1 *"}
`, repoURL, filepath.Join(dir, "site"), ports[0], ports[1], ports[2], ports[3], ports[4]))
	return cfg
}

// TestDaemonServesAndStopsGracefully starts the real binary, waits until
// the site is ready, and stops it with SIGTERM: it must exit 0.
func TestDaemonServesAndStopsGracefully(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "---\ntitle: Handbook\n---\nWelcome aboard.\n"})
	dir := t.TempDir()
	ports := freePorts(t, 5)
	cmd := exec.Command(binary, "daemon", "-c", daemonConfigFile(t, dir, ports, repo.FileURL()), "--log-format", "json")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()

	ready := fmt.Sprintf("http://127.0.0.1:%d/ready", ports[2])
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(ready)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemon never ready; stderr:\n%s", stderr.String())
		}
		select {
		case err := <-exited:
			t.Fatalf("daemon exited early: %v\n%s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", ports[0]))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("docs root: %v %v", resp, err)
	}
	resp.Body.Close()

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("daemon did not stop within 30s of SIGTERM")
	}
	if !strings.Contains(stderr.String(), `"message":"stopped"`) {
		t.Fatalf("no orderly stop in the log:\n%s", stderr.String())
	}
}

func TestDaemonPortErrors(t *testing.T) {
	dir := t.TempDir()
	ports := freePorts(t, 5)
	held, err := net.Listen("tcp", fmt.Sprintf(":%d", ports[1]))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	res := run(t, dir, nil, "daemon", "-c", daemonConfigFile(t, dir, ports, "file:///nowhere"), "--log-format", "json")
	want := fmt.Sprintf("webhook port %d: ", ports[1])
	if res.code != 1 || !strings.Contains(res.stderr, want) || !strings.Contains(res.stderr, "address already in use") {
		t.Fatalf("port in use: exit %d, want 1 and %q…address already in use\n%s", res.code, want, res.stderr)
	}

	same := []int{ports[0], ports[0], ports[2], ports[3], ports[4]}
	res = run(t, dir, nil, "daemon", "-c", daemonConfigFile(t, dir, same, "file:///nowhere"))
	if res.code != 2 || !strings.Contains(res.stderr, "daemon.http.webhook_port") || !strings.Contains(res.stderr, fmt.Sprint(ports[0])) {
		t.Fatalf("same port twice: exit %d\n%s", res.code, res.stderr)
	}
}
