package webhook

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gitlabFixtureEvents maps each GitLab fixture to the X-Gitlab-Event
// header GitLab sends with it.
var gitlabFixtureEvents = map[string]string{
	"push_hook.json":                  "Push Hook",
	"push_hook_other_branch.json":     "Push Hook",
	"push_hook_branch_deleted.json":   "Push Hook",
	"tag_push_hook.json":              "Tag Push Hook",
	"merge_request_hook.json":         "Merge Request Hook",
	"system_hook_push.json":           "System Hook",
	"system_hook_project_create.json": "System Hook",
}

// gitlabHeaders are the headers GitLab sends with the right token.
func gitlabHeaders(event string) map[string]string {
	return map[string]string{
		HeaderGitLabEvent:     event,
		HeaderGitLabToken:     testGitLabToken,
		HeaderGitLabEventUUID: "9b2f5c1e-3d4a-4f8b-a6c7-e0d1f2a3b4c5",
		"User-Agent":          "GitLab/17.9.0",
	}
}

func TestGitLabPushTriggers(t *testing.T) {
	h := newHarness(t, nil)
	body := readFixture(t, "gitlab/push_hook.json")
	r := h.post(t, PathGitLab, gitlabHeaders("Push Hook"), body)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")
	calls := h.rec.Calls()
	want := Trigger{Source: SourceGitLab, Event: "push", DeliveryID: "9b2f5c1e-3d4a-4f8b-a6c7-e0d1f2a3b4c5",
		Repositories: []string{"gl-handbook"}, Branch: "main", Commit: "9a4e1b7c3d2f6e8a0b5c7d9e1f3a5b7c9d0e2f4a",
		Reason: "gitlab push to branch main of platform/docs/handbook"}
	if len(calls) != 1 || !equalTriggers(calls[0], want) {
		t.Fatalf("triggers %+v, want [%+v]", calls, want)
	}
}

func TestGitLabRefusesWrongOrMissingToken(t *testing.T) {
	h := newHarness(t, nil)
	body := readFixture(t, "gitlab/push_hook.json")
	for name, header := range map[string]map[string]string{
		"missing":       {HeaderGitLabEvent: "Push Hook"},
		"wrong":         {HeaderGitLabEvent: "Push Hook", HeaderGitLabToken: "gl-token-52ab90dX"},
		"prefix":        {HeaderGitLabEvent: "Push Hook", HeaderGitLabToken: testGitLabToken[:5]},
		"longer":        {HeaderGitLabEvent: "Push Hook", HeaderGitLabToken: testGitLabToken + "0"},
		"HMAC not used": {HeaderGitLabEvent: "Push Hook", HeaderGitHubSignature: "sha256=" + hexHMAC(testGitLabToken, body)},
	} {
		r := h.post(t, PathGitLab, header, body)
		if r.status != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, r.status)
			continue
		}
		wantField(t, r, "code", CodeInvalidSignature)
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGitLabWithoutTokenRefusesEverything(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Secrets.GitLabToken = "" })
	body := readFixture(t, "gitlab/push_hook.json")
	r := h.post(t, PathGitLab, map[string]string{HeaderGitLabEvent: "Push Hook", HeaderGitLabToken: ""}, body)
	wantStatus(t, r, http.StatusUnauthorized)
	if !strings.Contains(r.raw, "daemon.webhooks.gitlab_token") {
		t.Errorf("message does not name the configuration key: %s", r.raw)
	}
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestGitLabFixtures(t *testing.T) {
	cases := map[string]struct {
		status string
		reason string // substring of the reason when ignored
	}{
		"push_hook.json":                  {status: "accepted"},
		"push_hook_other_branch.json":     {status: "ignored", reason: `push to branch "draft/glossary"`},
		"push_hook_branch_deleted.json":   {status: "ignored", reason: "deleted"},
		"tag_push_hook.json":              {status: "ignored", reason: "tag push (v2.1.0)"},
		"merge_request_hook.json":         {status: "ignored", reason: `previews are off`},
		"system_hook_push.json":           {status: "accepted"},
		"system_hook_project_create.json": {status: "ignored", reason: `"System Hook" does not trigger`},
	}
	assertEveryFixtureMapped(t, "gitlab", gitlabFixtureEvents)
	h := newHarness(t, nil)
	for file, event := range gitlabFixtureEvents {
		want, ok := cases[file]
		if !ok {
			t.Fatalf("no expectation for %s", file)
		}
		r := h.post(t, PathGitLab, gitlabHeaders(event), readFixture(t, "gitlab/"+file))
		if r.status >= 500 || r.status != http.StatusAccepted {
			t.Errorf("%s: status %d, want 202; body %s", file, r.status, r.raw)
			continue
		}
		if got, _ := r.body["status"].(string); got != want.status {
			t.Errorf("%s: status %q, want %q; body %s", file, got, want.status, r.raw)
		}
		if reason, _ := r.body["reason"].(string); !strings.Contains(reason, want.reason) {
			t.Errorf("%s: reason %q, want it to contain %q", file, reason, want.reason)
		}
	}
	if n := len(h.rec.Calls()); n != 2 {
		t.Fatalf("trigger called %d times, want 2", n)
	}
}

func TestGitLabTagPushWhenVersioned(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Versioned = true })
	r := h.post(t, PathGitLab, gitlabHeaders("Tag Push Hook"), readFixture(t, "gitlab/tag_push_hook.json"))
	wantField(t, r, "status", "accepted")
	calls := h.rec.Calls()
	if len(calls) != 1 || calls[0].Tag != "v2.1.0" || calls[0].Commit != "4b6d8f0a2c4e6a8b0d2f4a6c8e0b2d4f6a8c0e2b" {
		t.Fatalf("triggers %+v, want one for tag v2.1.0", calls)
	}
}

// assertEveryFixtureMapped fails when a fixture file has no entry in
// events, so a new fixture cannot be silently left out of the tests.
func assertEveryFixtureMapped(t *testing.T, dir string, events map[string]string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := events[e.Name()]; !ok && filepath.Ext(e.Name()) == ".json" {
			t.Errorf("testdata/%s/%s has no event header in the test's table", dir, e.Name())
		}
	}
	if len(entries) < len(events) {
		t.Errorf("testdata/%s has %d files, the table names %d", dir, len(entries), len(events))
	}
}
