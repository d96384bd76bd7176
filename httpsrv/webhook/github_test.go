package webhook

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

// masterPush returns an Octokit push example to refs/heads/master that
// creates no tag and deletes nothing.
func masterPush(t *testing.T) []byte {
	t.Helper()
	for _, ex := range githubExamples(t, "push") {
		var p githubPush
		if err := json.Unmarshal(ex, &p); err != nil {
			t.Fatal(err)
		}
		if p.Ref == "refs/heads/master" && !p.Deleted {
			return ex
		}
	}
	t.Fatal("no push to refs/heads/master among the examples")
	return nil
}

func TestGitHubSignedPushTriggers(t *testing.T) {
	h := newHarness(t, nil)
	push := masterPush(t)
	r := h.post(t, PathGitHub, githubHeaders("push", push), push)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")
	wantField(t, r, "build_id", "build-0001")
	wantField(t, r, "coalesced", false)

	calls := h.rec.Calls()
	if len(calls) != 1 {
		t.Fatalf("trigger called %d times, want 1", len(calls))
	}
	got := calls[0]
	var p githubPush
	json.Unmarshal(push, &p)
	want := Trigger{Source: SourceGitHub, Event: "push", DeliveryID: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
		Repositories: []string{"hello"}, Branch: "master", Commit: p.After,
		Reason: "github push to branch master of Codertocat/Hello-World"}
	if !equalTriggers(got, want) {
		t.Fatalf("trigger\n got %+v\nwant %+v", got, want)
	}
}

func TestGitHubRefusesBadSignatures(t *testing.T) {
	push := masterPush(t)
	cases := map[string]map[string]string{
		"missing":       {HeaderGitHubEvent: "push"},
		"empty":         {HeaderGitHubEvent: "push", HeaderGitHubSignature: ""},
		"wrong secret":  {HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha256=" + hexHMAC("not-the-secret", push)},
		"sha1 prefix":   {HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha1=" + hexHMAC(testGitHubSecret, push)},
		"no prefix":     {HeaderGitHubEvent: "push", HeaderGitHubSignature: hexHMAC(testGitHubSecret, push)},
		"truncated":     {HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha256=" + hexHMAC(testGitHubSecret, push)[:40]},
		"other body":    {HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha256=" + hexHMAC(testGitHubSecret, []byte("{}"))},
		"not hex":       {HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha256=" + strings.Repeat("zz", 32)},
		"gitlab header": {HeaderGitHubEvent: "push", HeaderGitLabToken: testGitHubSecret},
	}
	h := newHarness(t, nil)
	for name, header := range cases {
		r := h.post(t, PathGitHub, header, push)
		if r.status != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, r.status)
			continue
		}
		wantField(t, r, "code", CodeInvalidSignature)
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times by refused requests", n)
	}
}

func TestGitHubRepeatedSignatureHeaderIsRefused(t *testing.T) {
	h := newHarness(t, nil)
	push := masterPush(t)
	req, _ := http.NewRequest(http.MethodPost, h.url+PathGitHub, strings.NewReader(string(push)))
	req.Header.Set(HeaderGitHubEvent, "push")
	req.Header.Add(HeaderGitHubSignature, "sha256="+hexHMAC("wrong", push))
	req.Header.Add(HeaderGitHubSignature, "sha256="+hexHMAC(testGitHubSecret, push))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || len(h.rec.Calls()) != 0 {
		t.Fatalf("status %d, %d triggers; want 401 and none", resp.StatusCode, len(h.rec.Calls()))
	}
}

func TestGitHubWithoutSecretRefusesEverything(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Secrets.GitHubSecret = "" })
	push := masterPush(t)
	// Signed with the empty key, which is what a forge without a secret
	// could compute: still refused.
	r := h.post(t, PathGitHub, map[string]string{HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha256=" + hexHMAC("", push)}, push)
	wantStatus(t, r, http.StatusUnauthorized)
	wantField(t, r, "code", CodeInvalidSignature)
	if !strings.Contains(r.raw, "daemon.webhooks.github_secret") {
		t.Errorf("message does not name the configuration key: %s", r.raw)
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGitHubPing(t *testing.T) {
	h := newHarness(t, nil)
	ping := githubExamples(t, "ping")[0]
	r := h.post(t, PathGitHub, githubHeaders("ping", ping), ping)
	wantStatus(t, r, http.StatusOK)
	wantField(t, r, "status", "pong")
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("ping triggered %d builds", n)
	}
}

func TestGitHubPushToAnotherBranchIsIgnored(t *testing.T) {
	h := newHarness(t, func(o *Options) {
		o.Repositories = []config.Repository{{Name: "hello", URL: "https://github.com/Codertocat/Hello-World", Branch: "release"}}
	})
	push := masterPush(t)
	r := h.post(t, PathGitHub, githubHeaders("push", push), push)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "ignored")
	if reason, _ := r.body["reason"].(string); !strings.Contains(reason, `"master"`) || !strings.Contains(reason, `"release"`) {
		t.Errorf("reason %q should name the pushed and the configured branch", reason)
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGitHubPushToUnknownRepositoryIsIgnored(t *testing.T) {
	h := newHarness(t, func(o *Options) {
		o.Repositories = []config.Repository{{Name: "other", URL: "https://github.com/Codertocat/Other-Repo"}}
	})
	push := masterPush(t)
	r := h.post(t, PathGitHub, githubHeaders("push", push), push)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "ignored")
	if reason, _ := r.body["reason"].(string); !strings.Contains(reason, "Codertocat/Hello-World") {
		t.Errorf("reason %q should name the repository", reason)
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGitHubOtherEventIsIgnored(t *testing.T) {
	h := newHarness(t, nil)
	star := githubExamples(t, "star")[0]
	r := h.post(t, PathGitHub, githubHeaders("star", star), star)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "ignored")
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGitHubFormEncodedPush(t *testing.T) {
	h := newHarness(t, nil)
	push := masterPush(t)
	form := []byte(url.Values{"payload": {string(push)}}.Encode())
	header := githubHeaders("push", form)
	header["Content-Type"] = "application/x-www-form-urlencoded"
	r := h.do(t, http.MethodPost, PathGitHub, header, form)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")
	if calls := h.rec.Calls(); len(calls) != 1 || calls[0].Branch != "master" {
		t.Fatalf("triggers %+v, want one for master", calls)
	}
}

func TestGitHubMalformedSignedBodyIs400(t *testing.T) {
	h := newHarness(t, nil)
	for name, body := range map[string][]byte{
		"truncated JSON": []byte(`{"ref": "refs/heads/master", "repository": {`),
		"wrong types":    []byte(`{"ref": 7, "repository": []}`),
		"empty":          {},
	} {
		r := h.post(t, PathGitHub, githubHeaders("push", body), body)
		if r.status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400; body %s", name, r.status, r.raw)
			continue
		}
		wantField(t, r, "code", CodeInvalidPayload)
	}
	form := []byte("payload=")
	header := githubHeaders("push", form)
	header["Content-Type"] = "application/x-www-form-urlencoded"
	r := h.do(t, http.MethodPost, PathGitHub, header, form)
	wantStatus(t, r, http.StatusBadRequest)
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGitHubMissingEventHeaderIs400(t *testing.T) {
	h := newHarness(t, nil)
	push := masterPush(t)
	header := githubHeaders("push", push)
	delete(header, HeaderGitHubEvent)
	r := h.post(t, PathGitHub, header, push)
	wantStatus(t, r, http.StatusBadRequest)
	wantField(t, r, "code", CodeMissingEvent)
	if !strings.Contains(r.raw, HeaderGitHubEvent) {
		t.Errorf("message should name %s: %s", HeaderGitHubEvent, r.raw)
	}
}

func TestGitHubTagPushTriggersOnlyWhenVersioned(t *testing.T) {
	var tagPush []byte
	for _, ex := range githubExamples(t, "push") {
		var p githubPush
		json.Unmarshal(ex, &p)
		if strings.HasPrefix(p.Ref, "refs/tags/") && !p.Deleted {
			tagPush = ex
		}
	}
	if tagPush == nil {
		t.Fatal("no tag creation among the push examples")
	}
	off := newHarness(t, nil)
	r := off.post(t, PathGitHub, githubHeaders("push", tagPush), tagPush)
	wantField(t, r, "status", "ignored")

	on := newHarness(t, func(o *Options) { o.Versioned = true })
	r = on.post(t, PathGitHub, githubHeaders("push", tagPush), tagPush)
	wantField(t, r, "status", "accepted")
	if calls := on.rec.Calls(); len(calls) != 1 || calls[0].Tag != "simple-tag" || calls[0].Branch != "" {
		t.Fatalf("triggers %+v, want one for tag simple-tag", calls)
	}
}

// TestGitHubPublishedExamples sends every example payload committed under
// testdata/github, correctly signed, as the event its file is named
// after. None may get a 5xx; pings pong; every push is recognised as a
// push (accepted, or ignored for a push-specific reason) and the branch
// pushes of the configured repository trigger.
func TestGitHubPublishedExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "github", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	h := newHarness(t, nil)
	var sent, pushes, triggered int
	for _, file := range files {
		event := strings.TrimSuffix(filepath.Base(file), ".json")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var examples []json.RawMessage
		if err := json.Unmarshal(data, &examples); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i, ex := range examples {
			before := len(h.rec.Calls())
			r := h.post(t, PathGitHub, githubHeaders(event, ex), ex)
			sent++
			name := fmt.Sprintf("%s[%d]", event, i)
			if r.status >= 500 {
				t.Errorf("%s: status %d; body %s", name, r.status, r.raw)
				continue
			}
			status, _ := r.body["status"].(string)
			reason, _ := r.body["reason"].(string)
			switch event {
			case "ping":
				if r.status != http.StatusOK || status != "pong" {
					t.Errorf("%s: %d %s, want 200 pong", name, r.status, r.raw)
				}
			case "push":
				pushes++
				var p githubPush
				json.Unmarshal(ex, &p)
				wantTrigger := p.Ref == "refs/heads/master" && !p.Deleted
				if wantTrigger {
					triggered++
					if status != "accepted" || len(h.rec.Calls()) != before+1 {
						t.Errorf("%s: %s, want accepted with one trigger", name, r.raw)
					}
				} else if status != "ignored" || strings.Contains(reason, "does not trigger builds; only pushes do") ||
					!(strings.Contains(reason, "tag push") || strings.Contains(reason, "deleted")) {
					t.Errorf("%s: %s, want a push ignored as a tag push or a deletion", name, r.raw)
				}
			default:
				if r.status != http.StatusAccepted || status != "ignored" || len(h.rec.Calls()) != before {
					t.Errorf("%s: %d %s, want 202 ignored without trigger", name, r.status, r.raw)
				}
			}
		}
	}
	if pushes == 0 || triggered == 0 {
		t.Fatalf("examples exercised %d pushes, %d triggering; want both > 0", pushes, triggered)
	}
	if got := len(h.rec.Calls()); got != triggered {
		t.Fatalf("trigger called %d times, want %d", got, triggered)
	}
	t.Logf("sent %d GitHub examples, %d pushes, %d triggered", sent, pushes, triggered)
}

// equalTriggers compares triggers field by field.
func equalTriggers(a, b Trigger) bool {
	return a.Source == b.Source && a.Event == b.Event && a.DeliveryID == b.DeliveryID &&
		slices.Equal(a.Repositories, b.Repositories) && a.Branch == b.Branch && a.Tag == b.Tag &&
		a.Commit == b.Commit && a.Reason == b.Reason
}

// With versioning every branch and tag may be a version: deletions, whose
// version must leave the site, trigger too.
func TestGitHubRefDeletionTriggersOnlyWhenVersioned(t *testing.T) {
	var deletion []byte
	for _, ex := range githubExamples(t, "push") {
		var p githubPush
		json.Unmarshal(ex, &p)
		if p.Deleted {
			deletion = ex
		}
	}
	if deletion == nil {
		t.Fatal("no ref deletion among the push examples")
	}
	off := newHarness(t, nil)
	wantField(t, off.post(t, PathGitHub, githubHeaders("push", deletion), deletion), "status", "ignored")
	on := newHarness(t, func(o *Options) { o.Versioned = true })
	wantField(t, on.post(t, PathGitHub, githubHeaders("push", deletion), deletion), "status", "accepted")
	if calls := on.rec.Calls(); len(calls) != 1 {
		t.Fatalf("triggers %+v, want one", calls)
	}
}
