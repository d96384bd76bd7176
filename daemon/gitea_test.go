package daemon

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/giteatest"
	"github.com/docweave/docweave/internal/gittest"
)

// TestAPushToARealGiteaIsServed is the round trip with a real forge: the
// daemon discovers a repository of a Gitea organisation, builds it and
// registers its webhook there; a developer's push over Git HTTP makes
// Gitea deliver a signed push webhook to the daemon's webhook server,
// which builds the new commit and serves its text. No build runs on the
// schedule, so only the delivery can bring the new text.
func TestAPushToARealGiteaIsServed(t *testing.T) {
	g := giteatest.New(t)
	g.CreateOrg(t, "acme")
	g.CreateRepo(t, "acme", "api")
	g.Push(t, "acme/api", map[string]string{"docs/index.md": "---\ntitle: API\n---\nFirst edition.\n"}, "docs")

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	webhookPort := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cfg := daemonConfig(t, gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nListed.\n"}).FileURL())
	cfg.Daemon.HTTP.WebhookPort = webhookPort
	cfg.Daemon.Webhooks.ForgejoSecret = "gitea-hook-secret"
	hookBase := "http://127.0.0.1:" + strconv.Itoa(webhookPort)
	cfg.Forges = []config.Forge{g.Forge("acme", hookBase)}
	d := startDaemon(t, cfg)
	// The site has repositories from two hosts (a file:// one and Gitea's),
	// so each is under its host's namespace.
	page := func() (int, string) { return get(t, "http://"+d.addrs.Docs+"/docs/127-0-0-1/api/") }
	eventually(t, "the discovered repository on the site", func() bool {
		code, body := page()
		return code == http.StatusOK && strings.Contains(body, "First edition.")
	})
	eventually(t, "the webhook registered on Gitea", func() bool {
		hooks := g.Hooks(t, "acme/api")
		return len(hooks) == 1 && hooks[0].Config["url"] == hookBase+"/webhooks/forgejo"
	})
	eventually(t, "the start-up builds to finish", func() bool {
		_, body := get(t, "http://"+d.addrs.Admin+"/status")
		return !strings.Contains(body, StateRunning) && !strings.Contains(body, StateQueued)
	})

	g.Push(t, "acme/api", map[string]string{"docs/index.md": "---\ntitle: API\n---\nSecond edition.\n"}, "second edition")
	eventually(t, "the pushed text served", func() bool {
		code, body := page()
		return code == http.StatusOK && strings.Contains(body, "Second edition.")
	})
}
