package webhook

import (
	"net/http"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

// forgejoFixtureEvents maps each Forgejo fixture to its X-Forgejo-Event.
var forgejoFixtureEvents = map[string]string{
	"push.json":     "push",
	"push_tag.json": "push",
	"issues.json":   "issues",
}

// forgejoHeaders are the headers Forgejo sends, correctly signed. Forgejo
// also sends the Gitea and GitHub families; the GitHub signature header is
// left out so the test proves the Forgejo one is what counts.
func forgejoHeaders(event string, body []byte) map[string]string {
	sig := hexHMAC(testForgejoSecret, body)
	return map[string]string{
		HeaderForgejoEvent:     event,
		HeaderForgejoDelivery:  "5c0f4a2e-8b1d-4e7a-9f36-2d8c1b0a7e95",
		HeaderForgejoSignature: sig,
		HeaderGiteaEvent:       event,
		HeaderGiteaDelivery:    "5c0f4a2e-8b1d-4e7a-9f36-2d8c1b0a7e95",
		HeaderGiteaSignature:   sig,
		HeaderGitHubEvent:      event,
	}
}

func TestForgejoPushTriggers(t *testing.T) {
	h := newHarness(t, nil)
	body := readFixture(t, "forgejo/push.json")
	r := h.post(t, PathForgejo, forgejoHeaders("push", body), body)
	wantStatus(t, r, http.StatusAccepted)
	wantField(t, r, "status", "accepted")
	want := Trigger{Source: SourceForgejo, Event: "push", DeliveryID: "5c0f4a2e-8b1d-4e7a-9f36-2d8c1b0a7e95",
		Repositories: []string{"fj-handbook"}, Branch: "main", Commit: "3f1e5d7c9b2a4f6e8d0c2b4a6f8e0d2c4b6a8f0e",
		Reason: "forgejo push to branch main of docs-team/handbook"}
	if calls := h.rec.Calls(); len(calls) != 1 || !equalTriggers(calls[0], want) {
		t.Fatalf("triggers %+v, want [%+v]", calls, want)
	}
}

func TestGiteaHeadersAloneTrigger(t *testing.T) {
	h := newHarness(t, nil)
	body := readFixture(t, "forgejo/push.json")
	header := map[string]string{
		HeaderGiteaEvent:     "push",
		HeaderGiteaDelivery:  "gitea-delivery-1",
		HeaderGiteaSignature: hexHMAC(testForgejoSecret, body),
	}
	r := h.post(t, PathForgejo, header, body)
	wantField(t, r, "status", "accepted")
	if calls := h.rec.Calls(); len(calls) != 1 || calls[0].DeliveryID != "gitea-delivery-1" {
		t.Fatalf("triggers %+v, want one with the Gitea delivery ID", calls)
	}
}

func TestForgejoRefusesBadSignatures(t *testing.T) {
	h := newHarness(t, nil)
	body := readFixture(t, "forgejo/push.json")
	good := hexHMAC(testForgejoSecret, body)
	for name, header := range map[string]map[string]string{
		"missing":                {HeaderForgejoEvent: "push"},
		"wrong":                  {HeaderForgejoEvent: "push", HeaderForgejoSignature: hexHMAC("other", body)},
		"prefixed":               {HeaderForgejoEvent: "push", HeaderForgejoSignature: "sha256=" + good},
		"wrong forgejo, good gi": {HeaderForgejoEvent: "push", HeaderForgejoSignature: hexHMAC("other", body), HeaderGiteaSignature: good},
		"wrong gitea":            {HeaderGiteaEvent: "push", HeaderGiteaSignature: hexHMAC("other", body)},
		"github header only":     {HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha256=" + good},
	} {
		r := h.post(t, PathForgejo, header, body)
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

func TestForgejoWithoutSecretRefusesEverything(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Secrets.ForgejoSecret = "" })
	body := readFixture(t, "forgejo/push.json")
	r := h.post(t, PathForgejo, map[string]string{HeaderForgejoEvent: "push", HeaderForgejoSignature: hexHMAC("", body)}, body)
	wantStatus(t, r, http.StatusUnauthorized)
	if !strings.Contains(r.raw, "daemon.webhooks.forgejo_secret") {
		t.Errorf("message does not name the configuration key: %s", r.raw)
	}
}

func TestForgejoFixtures(t *testing.T) {
	assertEveryFixtureMapped(t, "forgejo", forgejoFixtureEvents)
	want := map[string]string{"push.json": "accepted", "push_tag.json": "ignored", "issues.json": "ignored"}
	h := newHarness(t, nil)
	for file, event := range forgejoFixtureEvents {
		body := readFixture(t, "forgejo/"+file)
		r := h.post(t, PathForgejo, forgejoHeaders(event, body), body)
		if r.status != http.StatusAccepted {
			t.Errorf("%s: status %d, want 202; body %s", file, r.status, r.raw)
			continue
		}
		if got, _ := r.body["status"].(string); got != want[file] {
			t.Errorf("%s: status %q, want %q; body %s", file, got, want[file], r.raw)
		}
	}
	if n := len(h.rec.Calls()); n != 1 {
		t.Fatalf("trigger called %d times, want 1", n)
	}
}

func TestForgejoPushToAnotherBranchIsIgnored(t *testing.T) {
	h := newHarness(t, func(o *Options) {
		o.Repositories = []config.Repository{{Name: "fj", URL: "https://code.example.net/docs-team/handbook.git", Branch: "stable"}}
	})
	body := readFixture(t, "forgejo/push.json")
	r := h.post(t, PathForgejo, forgejoHeaders("push", body), body)
	wantField(t, r, "status", "ignored")
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("trigger called %d times", n)
	}
}

func TestForgejoPing(t *testing.T) {
	h := newHarness(t, nil)
	body := []byte(`{}`)
	r := h.post(t, PathForgejo, forgejoHeaders("ping", body), body)
	wantStatus(t, r, http.StatusOK)
	wantField(t, r, "status", "pong")
}
