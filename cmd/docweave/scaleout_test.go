package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/report"
)

// process is a docweave process started by a scale-out test.
type process struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	done   chan error
}

func startProcess(t testing.TB, dir string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(binary, append(args, "--log-format", "json")...)
	cmd.Dir = dir
	p := &process{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("docweave %v:\n%s", args, lastLines(p.stderr.String(), 15))
		}
	})
	return p
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// splitConfig writes the configuration of one process of a split
// deployment: every process has its own output directory and workspace, so
// nothing can pass between them through the disk.
func splitConfig(t testing.TB, name, brokerURL string, repos []string, ports []int) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	var b strings.Builder
	b.WriteString("repositories:\n")
	for i, url := range repos {
		fmt.Fprintf(&b, "  - {name: repo%d, url: %q}\n", i, url)
	}
	fmt.Fprintf(&b, `build: {artifact_store: broker, stream_replicas: 3, ack_wait: 3s, workspace_dir: %s}
output: {directory: %s}
daemon:
  link_verification: {enabled: true, nats_url: %q}
  sync: {schedule: "0 0 1 1 *"}
  http: {docs_port: %d, webhook_port: %d, admin_port: %d, livereload_port: %d}
`, filepath.Join(dir, "work"), filepath.Join(dir, "site"), brokerURL, ports[0], ports[1], ports[2], ports[3])
	cfg := filepath.Join(dir, "docweave.yaml")
	writeFile(t, cfg, b.String())
	return cfg, dir
}

func httpGet(url string) (int, string) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

type buildStatus struct {
	State  string         `json:"state"`
	Report *report.Report `json:"report"`
}

func triggerAndWait(t *testing.T, admin string, during func()) buildStatus {
	t.Helper()
	id := triggerBuild(t, admin)
	if during != nil {
		during()
	}
	return waitBuildDone(t, admin, id)
}

// triggerBuild asks the admin API for a build and returns its ID.
func triggerBuild(t *testing.T, admin string) string {
	t.Helper()
	resp, err := http.Post("http://"+admin+"/api/build/trigger", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var acc struct {
		BuildID string `json:"build_id"`
	}
	json.NewDecoder(resp.Body).Decode(&acc)
	resp.Body.Close()
	return acc.BuildID
}

func waitBuildDone(t *testing.T, admin, id string) buildStatus {
	t.Helper()
	var st buildStatus
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		code, body := httpGet("http://" + admin + "/api/builds/" + id)
		if code == http.StatusOK {
			_ = json.Unmarshal([]byte(body), &st)
			if st.State != "queued" && st.State != "running" {
				return st
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("build %s did not finish within 90s (state %q)", id, st.State)
	return st
}

// waitAckPending waits until a stage holds a message it has not settled.
// The split configurations name no site, so theirs is derived: docweave.
func waitAckPending(t *testing.T, brokerURL, stage string) {
	t.Helper()
	nc, err := nats.Connect(brokerURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	raw, _ := jetstream.New(nc)
	js := natsbroker.NewScope("docweave").JetStream(raw)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := js.Consumer(context.Background(), natsbroker.StreamName, pipeline.ConsumerName(stage)); err == nil {
			if info, err := c.Info(context.Background()); err == nil && info.NumAckPending > 0 {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("stage %s never held a message", stage)
}

// TestScaleOut runs the stages as separate processes on a three-node NATS
// cluster, each with its own disk, and checks that they build the same site
// as a single-process build; that a render process killed mid-message is
// replaced by another replica; and that a build completes with one NATS
// node down.
func TestScaleOut(t *testing.T) {
	cluster := natstest.StartCluster(t, 3)
	var urls []string
	for i := 0; i < 3; i++ {
		files := map[string]string{"docs/_index.md": fmt.Sprintf("---\ntitle: Repo %d\n---\nHome of %d.\n", i, i)}
		for p := 0; p < 4; p++ {
			files[fmt.Sprintf("docs/guide/p%d.md", p)] = fmt.Sprintf("---\ntitle: R%d page %d\n---\nText %d-%d.\n", i, p, i, p)
		}
		files["docs/guide/links.md"] = fmt.Sprintf("# Links\n\n[Next door](/docs/repo%d/guide/p0/) and [nowhere](/docs/repo%d/no-such-page/).\n", i, i)
		urls = append(urls, gittest.NewRepo(t, files).FileURL())
	}

	// The single-process reference build.
	refDir := t.TempDir()
	ref := filepath.Join(refDir, "ref.yaml")
	var rb strings.Builder
	rb.WriteString("repositories:\n")
	for i, u := range urls {
		fmt.Fprintf(&rb, "  - {name: repo%d, url: %q}\n", i, u)
	}
	fmt.Fprintf(&rb, "output: {directory: %s}\n", filepath.Join(refDir, "site"))
	writeFile(t, ref, rb.String())
	if res := run(t, refDir, nil, "build", "-c", ref, "--log-format", "json"); res.code != 0 {
		t.Fatalf("reference build: %d\n%s", res.code, res.stderr)
	}
	want := readReport(t, filepath.Join(refDir, "site"))

	ports := freePorts(t, 8)
	brokerURL := cluster.URLs()
	dirs := map[string]string{}
	start := func(name string, args ...string) *process {
		cfg, dir := splitConfig(t, name, brokerURL, urls, ports[:4])
		dirs[name] = dir
		return startProcess(t, dir, append(args, "-c", cfg)...)
	}
	start("discover", "stage", "--stages", "discover", "--metrics-addr", "127.0.0.1:0")
	start("acquire1", "stage", "--stages", "clone,join", "--metrics-addr", "127.0.0.1:0")
	start("acquire2", "stage", "--stages", "clone,join", "--metrics-addr", "127.0.0.1:0")
	// Rendering in parts: render replicas anywhere, the assembly where
	// the site is written (beside publishreload, which uploads it).
	render := start("render1", "stage", "--stages", "render", "--metrics-addr", "127.0.0.1:0")
	start("site", "stage", "--stages", "assemble,finish,publishreload", "--metrics-addr", "127.0.0.1:0")
	start("verifylinks", "stage", "--stages", "verifylinks", "--metrics-addr", "127.0.0.1:0")
	start("serve", "serve", "--servers", "admin,docs")
	admin := fmt.Sprintf("127.0.0.1:%d", ports[2])
	docsURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])

	// The start-up build, through separate processes: same documentation,
	// same pages as the single process; the docs server fetched the site
	// through the broker.
	deadline := time.Now().Add(90 * time.Second)
	for {
		if code, body := httpGet(docsURL + "/docs/repo2/guide/p3/"); code == 200 && strings.Contains(body, "Text 2-3.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the split deployment never served the site")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// verifylinks, in a process of its own, fetched the site from the
	// object store; the render process's report gained its figures.
	var startup report.Report
	for deadline := time.Now().Add(60 * time.Second); ; {
		data, err := os.ReadFile(filepath.Join(dirs["site"], "site", "build-report.json"))
		if err == nil && json.Unmarshal(data, &startup) == nil && startup.Links != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the link figures never reached the site process's report")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if startup.Links.Broken != 3 || startup.Links.Status != report.LinksComplete {
		t.Fatalf("links of the split build: %+v, want 3 broken (one per repository)", startup.Links)
	}
	for _, p := range startup.Links.BrokenLinks {
		if p.SourceFile != "docs/guide/links.md" {
			t.Fatalf("broken link without its source file (trees not fetched?): %+v", p)
		}
	}

	first := triggerAndWait(t, admin, nil) // nothing changed since the start-up build
	if first.State != "skipped" || first.Report.DocFilesHash != want.DocFilesHash || first.Report.RenderedPages != want.RenderedPages {
		t.Fatalf("split build: %s hash %s pages %d; single process: hash %s pages %d",
			first.State, first.Report.DocFilesHash, first.Report.RenderedPages, want.DocFilesHash, want.RenderedPages)
	}

	// A render process killed while it holds a message: another replica
	// takes the message over and the build completes.
	gittestCommit(t, urls[0], "docs/guide/p0.md", "---\ntitle: R0 page 0\n---\nEdited once.\n")
	st := triggerAndWait(t, admin, func() {
		waitAckPending(t, brokerURL, "render")
		_ = render.cmd.Process.Signal(syscall.SIGKILL)
		start("render2", "stage", "--stages", "render", "--metrics-addr", "127.0.0.1:0")
	})
	if st.State != "success" {
		t.Fatalf("build after the render process was killed: %s", st.State)
	}
	if st.Report.Redeliveries["render"] < 1 {
		t.Fatalf("the report does not show the render redelivery: %v", st.Report.Redeliveries)
	}
	// The docs server learns of the new site from site.published and
	// fetches it; the build's end does not wait for that.
	for deadline := time.Now().Add(30 * time.Second); ; {
		if _, body := httpGet(docsURL + "/docs/repo0/guide/p0/"); strings.Contains(body, "Edited once.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the docs server does not serve the build that survived the kill")
		}
		time.Sleep(100 * time.Millisecond)
	}

	// One NATS node of three goes away mid-build: the build completes.
	gittestCommit(t, urls[1], "docs/guide/p1.md", "---\ntitle: R1 page 1\n---\nEdited twice.\n")
	st = triggerAndWait(t, admin, func() { cluster.Shutdown(2) })
	if st.State != "success" {
		t.Fatalf("build with a NATS node down: %s", st.State)
	}
}

// gittestCommit commits to the repository behind a file:// URL.
func gittestCommit(t *testing.T, url, path, content string) {
	t.Helper()
	dir := strings.TrimPrefix(url, "file://")
	writeFile(t, filepath.Join(dir, path), content)
	gittest.Git(t, dir, "commit", "-qam", "edit "+path)
	_ = os.Getenv
}
