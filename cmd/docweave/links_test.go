package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/linkcheck"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/report"
)

// listeningBroker starts an embedded broker that accepts network clients
// with credentials, as the daemon's does with broker.embedded.listen, on a
// random loopback port, scoped to the default site "docweave".
func listeningBroker(t *testing.T) *natsbroker.Broker {
	t.Helper()
	b, err := natsbroker.Open(context.Background(), natsbroker.Options{
		StoreDir: filepath.Join(t.TempDir(), "nats"), Listen: "127.0.0.1:0", Username: "tail", Password: "tail-secret",
		Name: "links-test", Site: "docweave",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// authURL is the broker's URL with the credentials it requires.
func authURL(b *natsbroker.Broker) string {
	return strings.Replace(b.ClientURL(), "nats://", "nats://tail:tail-secret@", 1)
}

func publishBroken(t *testing.T, b *natsbroker.Broker, subject, build, url string) {
	t.Helper()
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	ev := &events.BrokenLink{
		Header:    events.Header{ID: "links.broken:" + build + ":" + url, BuildID: build},
		PublishOn: subject, URL: url, StatusCode: 404, Reason: "not_found", Error: "HTTP 404 Not Found",
		Element: "a[href]", SourcePage: "/docs/handbook/guide/", SourceFile: "docs/guide.md",
		Repository: "handbook", Forge: "github", FirstSeen: now, LastSeen: now, FailureCount: 1, Site: "sha256:1",
	}
	if err := pipeline.Publish(context.Background(), b.JS, ev); err != nil {
		t.Fatal(err)
	}
}

// TestLinksTailReplaysAndFilters: a subscriber started after the events
// were published replays them from the stream, as JSON or as lines.
func TestLinksTailReplaysAndFilters(t *testing.T) {
	b := listeningBroker(t)
	const subject = "team.docs.broken"
	if err := linkcheck.ProvisionLinks(context.Background(), b.JS, linkcheck.LinkResources{Subject: subject, Bucket: "builder-link-cache"}); err != nil {
		t.Fatal(err)
	}
	publishBroken(t, b, subject, "b1", "https://example.org/a")
	publishBroken(t, b, subject, "b2", "https://example.org/b")
	publishBroken(t, b, subject, "b2", "https://example.org/b") // a duplicate: dropped by the stream

	dir := t.TempDir()
	res := run(t, dir, nil, "links", "tail", "--broker", authURL(b), "--subject", subject, "--replay", "--json", "--count", "2")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), res.stdout)
	}
	for i, want := range []string{"https://example.org/a", "https://example.org/b"} {
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v", i, err)
		}
		if m["url"] != want || m["schema_version"] != float64(1) || m["type"] != subject {
			t.Errorf("line %d: %v", i, m)
		}
	}

	res = run(t, dir, nil, "links", "tail", "--broker", authURL(b), "--subject", subject, "--replay", "--build", "b2", "--count", "1")
	if res.code != 0 || !strings.Contains(res.stdout, "404 not_found  https://example.org/b  in handbook:docs/guide.md (a[href]") {
		t.Fatalf("exit %d, output:\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if strings.Contains(res.stdout, "example.org/a") {
		t.Fatal("--build did not filter")
	}
}

// TestLinksTailFollowsNewEvents: without --replay only events published
// after the subscription are printed.
func TestLinksTailFollowsNewEvents(t *testing.T) {
	b := listeningBroker(t)
	const subject = "builder.links.broken"
	if err := linkcheck.ProvisionLinks(context.Background(), b.JS, linkcheck.LinkResources{Subject: subject, Bucket: "builder-link-cache"}); err != nil {
		t.Fatal(err)
	}
	publishBroken(t, b, subject, "old", "https://example.org/old")
	cfg := filepath.Join(t.TempDir(), "docweave.yaml")
	writeFile(t, cfg, fmt.Sprintf("repositories:\n  - {name: a, url: https://example.org/a.git}\ndaemon:\n  link_verification:\n    broker_url: %s\n", authURL(b)))

	var out bytes.Buffer
	done := make(chan error, 1)
	cmd := newRootCommand()
	cmd.SetArgs([]string{"links", "tail", "-c", cfg, "--count", "1", "--json"})
	cmd.SetOut(&out)
	cmd.SetErr(&bytes.Buffer{})
	go func() { done <- cmd.Execute() }()
	// Publish until the subscriber has seen one: it may not be subscribed
	// yet when the first is sent.
	deadline := time.After(20 * time.Second)
	for i := 0; ; i++ {
		publishBroken(t, b, subject, "new", fmt.Sprintf("https://example.org/new/%d", i))
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out.String(), "/old") || !strings.Contains(out.String(), "/new/") {
				t.Fatalf("output: %s", out.String())
			}
			return
		case <-deadline:
			t.Fatal("tail printed nothing")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func TestLinksTailRejectsBadFlags(t *testing.T) {
	res := run(t, t.TempDir(), nil, "links", "tail", "--broker", "nats://127.0.0.1:1", "--since", "yesterday")
	if res.code != 2 || !strings.Contains(res.stderr, "--since") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	res = run(t, t.TempDir(), nil, "links", "tail", "--broker", "nats://127.0.0.1:1", "--subject", "docweave.x")
	if res.code != 2 {
		t.Fatalf("exit %d for an unreachable broker: %s", res.code, res.stderr)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	if got, err := parseSince("2h", now); err != nil || !got.Equal(now.Add(-2*time.Hour)) {
		t.Fatalf("2h: %v %v", got, err)
	}
	if got, err := parseSince("2026-04-30T08:00:00Z", now); err != nil || got.Day() != 30 {
		t.Fatalf("RFC 3339: %v %v", got, err)
	}
	if _, err := parseSince("-1h", now); err == nil {
		t.Fatal("a negative duration was accepted")
	}
}

// TestBuildVerifyLinks runs `docweave build --verify-links` on a repository
// whose pages link to a loopback server and to a missing page: the build
// waits for the verification, prints its figures, and the report holds
// them. Without the flag nothing is verified.
func TestBuildVerifyLinks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/fine" {
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	repo := gittest.NewRepo(t, map[string]string{
		"docs/_index.md": "---\ntitle: Handbook\n---\nSee the [guide](guide.md).\n",
		"docs/guide.md":  fmt.Sprintf("---\ntitle: Guide\n---\n[fine](%s/fine) [gone](%s/gone) [nowhere](missing.md) [bad anchor](#nope)\n\n## Setup\n", srv.URL, srv.URL),
	})
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	cfg := filepath.Join(dir, "docweave.yaml")
	writeFile(t, cfg, fmt.Sprintf(`
repositories:
  - {name: handbook, url: %q}
daemon:
  link_verification:
    rate_limit_delay: 0s
output:
  directory: %s
`, repo.FileURL(), out))

	res := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json")
	if res.code != 0 || strings.Contains(res.stdout, "links:") {
		t.Fatalf("plain build: exit %d\n%s", res.code, res.stdout)
	}
	if rep := readReport(t, out); rep.Links != nil {
		t.Fatal("a build without --verify-links has a links section")
	}

	res = run(t, dir, nil, "build", "-c", cfg, "--log-format", "json", "--verify-links")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "links:") || !strings.Contains(res.stdout, "3 broken") {
		t.Fatalf("figures not printed:\n%s", res.stdout)
	}
	if !strings.Contains(res.stdout, "broken "+srv.URL+"/gone in handbook:docs/guide.md") {
		t.Fatalf("broken link not listed with its source file:\n%s", res.stdout)
	}
	rep := readReport(t, out)
	if rep.Links == nil || rep.Links.Broken != 3 || rep.Links.External != 2 || rep.Links.Status != report.LinksComplete {
		t.Fatalf("report links section: %+v", rep.Links)
	}
}

// TestLinksTailCreatesTheStreamButNeverChangesIt: a subscriber that starts
// first creates the stream; one with another subject is refused rather
// than re-pointing the stream the verifying side uses.
func TestLinksTailCreatesTheStreamButNeverChangesIt(t *testing.T) {
	b := listeningBroker(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cmd := newRootCommand()
	cmd.SetArgs([]string{"links", "tail", "--broker", authURL(b)})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	go func() { done <- cmd.ExecuteContext(ctx) }()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := b.JS.Stream(context.Background(), linkcheck.LinksStreamName); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("tail did not create the stream")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("an interrupted tail returned %v", err)
	}

	res := run(t, t.TempDir(), nil, "links", "tail", "--broker", authURL(b), "--subject", "other.subject")
	if res.code != 2 || !strings.Contains(res.stderr, "other.subject") {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	s, err := b.JS.Stream(context.Background(), linkcheck.LinksStreamName)
	if err != nil {
		t.Fatal(err)
	}
	if subj := s.CachedInfo().Config.Subjects; len(subj) != 1 || subj[0] != events.DefaultBrokenLinkSubject {
		t.Fatalf("stream subjects changed to %v", subj)
	}
}
