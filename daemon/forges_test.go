package daemon

import (
	"net/http"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/forgetest"
	"github.com/docweave/docweave/internal/gittest"
)

// TestDaemonDiscoversRepositoriesOnTheSchedule: the leading daemon scans a
// GitHub organisation at start-up and on every tick of the sync schedule;
// discovered repositories are built and shown on /status, their webhooks
// are registered and trigger builds; a repository that leaves the
// organisation leaves the site; an organisation that cannot be listed keeps
// its last repositories and shows as failed on /status.
func TestDaemonDiscoversRepositoriesOnTheSchedule(t *testing.T) {
	git := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	handbook := git.Add(t, "handbook", gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nListed.\n"}))
	forge := forgetest.New(t, forgetest.GitHub, forgetest.Options{Token: "api-token"})
	for _, name := range []string{"api", "cli"} {
		url := git.Add(t, "acme/"+name, gittest.NewRepo(t, map[string]string{"docs/index.md": "---\ntitle: " + name + "\n---\nAbout " + name + ".\n"}))
		forge.Add(forgetest.Repo{Owner: "acme", Name: name, Paths: []string{"docs"}, CloneURL: url})
	}
	cfg := daemonConfig(t, handbook)
	cfg.Forges = []config.Forge{{
		Type: config.ForgeGitHub, BaseURL: forge.URL(), Organizations: []string{"acme"},
		Auth:     config.Auth{Type: config.AuthToken, Token: "api-token"},
		Webhooks: config.ForgeWebhooks{Register: true, URL: "https://hooks.example.com"},
	}}
	var ctl *controlPlane
	controlStarted = func(c *controlPlane) { ctl = c }
	t.Cleanup(func() { controlStarted = nil })
	d := startDaemon(t, cfg)
	a := d.addrs

	page := func(name string) (int, string) { return get(t, "http://"+a.Docs+"/docs/"+name+"/") }
	eventually(t, "the discovered repositories on the site", func() bool {
		code, body := page("api")
		return code == http.StatusOK && strings.Contains(body, "About api.")
	})
	if code, _ := page("handbook/guide"); code != http.StatusOK {
		t.Fatalf("the listed repository is not served: %d", code)
	}
	_, status := get(t, "http://"+a.Admin+"/status")
	for _, want := range []string{"<h2>Forges</h2>", "2 of 2", "cli"} {
		if !strings.Contains(status, want) {
			t.Fatalf("/status lacks %q", want)
		}
	}
	hooks := forge.Hooks("acme/api")
	if len(hooks) != 1 || hooks[0].URL != "https://hooks.example.com/webhooks/github" || hooks[0].Secret != githubSecret {
		t.Fatalf("registered webhooks %+v", hooks)
	}
	// A push to a discovered repository is matched and builds.
	code, body := postWebhook(t, "http://"+a.Webhook+"/webhooks/github", pushPayload(git.URL()+"/acme/cli.git", "refs/heads/main"), githubSecret)
	if code != http.StatusAccepted || !strings.Contains(body, `"cli"`) {
		t.Fatalf("push to a discovered repository: %d %s", code, body)
	}
	eventually(t, "the webhook build to finish", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return !strings.Contains(body, StateRunning) && !strings.Contains(body, StateQueued)
	})

	forge.Remove("acme/api")
	ctl.scheduledSync()
	eventually(t, "api to leave the site", func() bool { code, _ := page("api"); return code == http.StatusNotFound })
	if code, body := page("cli"); code != http.StatusOK || !strings.Contains(body, "About cli.") {
		t.Fatalf("cli after api left: %d", code)
	}

	forge.FailListings(1000)
	ctl.scheduledSync()
	eventually(t, "the failed listing on /status", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return strings.Contains(body, `s-failed">failed`) && strings.Contains(body, "503")
	})
	eventually(t, "the build after the failed listing", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return !strings.Contains(body, StateRunning) && !strings.Contains(body, StateQueued)
	})
	if code, _ := page("cli"); code != http.StatusOK {
		t.Fatalf("a forge that cannot be listed must keep its repositories on the site: %d", code)
	}
}
