package daemon

import (
	"bufio"
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	_ "github.com/docweave/docweave/stages/all"
)

const githubSecret = "webhook-secret-for-tests"

// runningDaemon is a daemon started in this process on random ports.
type runningDaemon struct {
	addrs Addresses
	stop  func() error
}

func startDaemon(t testing.TB, cfg *config.Config) *runningDaemon {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan Addresses, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, cfg, Options{Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel), Ready: func(a Addresses) { ready <- a }})
	}()
	select {
	case a := <-ready:
		d := &runningDaemon{addrs: a}
		var stopped bool
		var stopErr error
		d.stop = func() error {
			if !stopped {
				stopped = true
				cancel()
				stopErr = <-done
			}
			return stopErr
		}
		t.Cleanup(func() { _ = d.stop() })
		return d
	case err := <-done:
		cancel()
		t.Fatalf("daemon did not start: %v", err)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("daemon did not start within 30s")
	}
	return nil
}

func daemonConfig(t testing.TB, repoURL string) *config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.Mode = config.ModeDaemon
	cfg.Repositories = []config.Repository{{Name: "handbook", URL: repoURL}}
	dir := t.TempDir()
	cfg.Output.Directory = filepath.Join(dir, "site")
	cfg.Daemon.Storage.OutputDir = cfg.Output.Directory
	cfg.Daemon.HTTP = config.HTTP{LiveReloadEnabled: true} // port 0: free ports, reported through Options.Ready
	cfg.Daemon.Webhooks.GitHubSecret = githubSecret
	cfg.Daemon.Sync.Schedule = "0 0 1 1 *" // no scheduled build during the test
	return &cfg
}

func get(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sse follows the live-reload stream and delivers event names.
func sse(t testing.TB, url string) <-chan string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("live reload content type %q", ct)
	}
	names := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				names <- name
			}
		}
	}()
	return names
}

func pushPayload(url, ref string) []byte {
	body, _ := json.Marshal(map[string]any{
		"ref":   ref,
		"after": "0000000000000000000000000000000000000001",
		"repository": map[string]any{
			"full_name": "org/handbook", "clone_url": url, "html_url": url, "default_branch": "main",
		},
	})
	return body
}

func postWebhook(t testing.TB, url string, body []byte, secret string) (int, string) {
	t.Helper()
	return postGitHub(t, url, "push", body, secret)
}

// postGitHub posts a GitHub event, signed with secret when it is set.
func postGitHub(t testing.TB, url, event string, body []byte, secret string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", "test-delivery")
	if secret != "" {
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write(body)
		req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

type buildStatus struct {
	State      string `json:"state"`
	SkipReason string `json:"skip_reason"`
}

func waitBuild(t testing.TB, admin, id string) buildStatus {
	t.Helper()
	var st buildStatus
	eventually(t, "build "+id+" to finish", func() bool {
		code, body := get(t, "http://"+admin+"/api/builds/"+id)
		if code != http.StatusOK {
			return false
		}
		_ = json.Unmarshal([]byte(body), &st)
		return st.State != StateQueued && st.State != StateRunning
	})
	return st
}

func trigger(t testing.TB, admin string) string {
	t.Helper()
	resp, err := http.Post("http://"+admin+"/api/build/trigger", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		BuildID string `json:"build_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("trigger: %d %v", resp.StatusCode, err)
	}
	return out.BuildID
}

// TestDaemonEndToEnd follows the scenario: the daemon builds at
// start-up from a repository served over Git smart HTTP; /ready turns 200;
// a push announced by a correctly signed GitHub webhook brings the new text
// to the docs server and a reload event to /sse; an unsigned webhook changes
// nothing; a trigger with nothing changed is skipped with its reason.
func TestDaemonEndToEnd(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nFirst edition.\n"})
	url := srv.Add(t, "handbook", repo)
	d := startDaemon(t, daemonConfig(t, url))
	a := d.addrs

	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+a.Admin+"/ready"); return code == 200 })
	if code, body := get(t, "http://"+a.Docs+"/docs/handbook/guide/"); code != 200 || !strings.Contains(body, "First edition.") {
		t.Fatalf("docs server: %d %q", code, body)
	}
	if code, _ := get(t, "http://"+a.Docs+"/ready"); code != 200 {
		t.Fatalf("docs /ready %d", code)
	}
	eventually(t, "the start-up build to finish", func() bool {
		code, body := get(t, "http://"+a.Admin+"/status")
		return code == 200 && !strings.Contains(body, StateRunning)
	})

	// Nothing changed: skipped, with the reason.
	if st := waitBuild(t, a.Admin, trigger(t, a.Admin)); st.State != "skipped" || !strings.Contains(st.SkipReason, "nothing changed") {
		t.Fatalf("unchanged trigger: %+v", st)
	}

	reloads := sse(t, "http://"+a.LiveReload+"/sse")
	repo.Commit(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nSecond edition.\n"}, "edit")

	// Unsigned: refused, and nothing is built.
	if code, _ := postWebhook(t, "http://"+a.Webhook+"/webhooks/github", pushPayload(url, "refs/heads/main"), ""); code != http.StatusUnauthorized {
		t.Fatalf("unsigned webhook answered %d", code)
	}
	time.Sleep(300 * time.Millisecond)
	if _, body := get(t, "http://"+a.Docs+"/docs/handbook/guide/"); strings.Contains(body, "Second edition.") {
		t.Fatal("an unsigned webhook changed the site")
	}

	code, body := postWebhook(t, "http://"+a.Webhook+"/webhooks/github", pushPayload(url, "refs/heads/main"), githubSecret)
	if code != http.StatusAccepted {
		t.Fatalf("signed webhook answered %d: %s", code, body)
	}
	var accepted struct {
		BuildID string `json:"build_id"`
	}
	_ = json.Unmarshal([]byte(body), &accepted)
	if st := waitBuild(t, a.Admin, accepted.BuildID); st.State != "success" {
		t.Fatalf("webhook build ended %+v", st)
	}
	if _, body := get(t, "http://"+a.Docs+"/docs/handbook/guide/"); !strings.Contains(body, "Second edition.") {
		t.Fatalf("the new text is not served:\n%s", body)
	}
	got := ""
	deadline := time.After(10 * time.Second)
	for got != "reload" {
		select {
		case got = <-reloads:
		case <-deadline:
			t.Fatal("no reload event on /sse after the publish")
		}
	}

	if _, metrics := get(t, "http://"+a.Admin+"/metrics"); !strings.Contains(metrics, "docweave_builds_total") {
		t.Fatal("/metrics lacks docweave_builds_total")
	}
	// Link verification ran after the builds and its figures reached the
	// admin server.
	eventually(t, "link figures on /status", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return strings.Contains(body, "complete")
	})
	// Every stage's backlog is on the status page, read from the broker.
	if _, body := get(t, "http://"+a.Admin+"/status"); !strings.Contains(body, "<td>render</td>") || !strings.Contains(body, "<td>clone</td>") {
		t.Fatal("/status lacks the stage backlog table")
	}
	_, metrics := get(t, "http://"+a.Admin+"/metrics")
	if !strings.Contains(metrics, "\ndocweave_links_checked_total ") || strings.Contains(metrics, "\ndocweave_links_checked_total 0\n") {
		t.Fatal("/metrics shows no checked links")
	}
	if err := d.stop(); err != nil {
		t.Fatalf("graceful stop: %v", err)
	}
}

func TestDaemonRefusesAPortInUse(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	cfg := daemonConfig(t, "file:///nowhere")
	cfg.Daemon.HTTP.AdminPort = held.Addr().(*net.TCPAddr).Port
	err = Run(context.Background(), cfg, Options{Log: zerolog.Nop()})
	want := fmt.Sprintf("admin port %d: ", cfg.Daemon.HTTP.AdminPort)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want an error starting %q", err, want)
	}
	// It names the key to change, not only the server.
	if fix := "stop it, or set daemon.http.admin_port to a free port"; !strings.Contains(err.Error(), fix) {
		t.Fatalf("got %v, want it to say %q", err, fix)
	}
}
