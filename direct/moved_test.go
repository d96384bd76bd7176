package direct

import (
	"context"
	"github.com/rs/zerolog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/httpsrv/docs"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
)

// Issue 15: a file git renamed between two builds leaves its old URL
// behind as a redirect: in the site's redirect map, as a redirect page,
// and as a 301 from the docs server (query kept). The builds share a
// broker, whose state bucket remembers the URLs published.
func TestARenamedFileRedirectsThroughTheDocsServer(t *testing.T) {
	body := "---\ntitle: Setup\n---\nSet it up, step by step.\n"
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Moving\n", "docs/guide/setup.md": body})
	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "moving", URL: repo.FileURL()}}
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Broker.URL = natstest.StartCluster(t, 1).ClientURL(0)
	build := func() {
		t.Helper()
		rep, err := Build(context.Background(), &cfg, Options{Log: zerolog.Nop()})
		if err != nil || rep.ExitCode() != 0 {
			t.Fatalf("build: %v %+v", err, rep)
		}
	}
	build()
	repo.Git(t, "mv", "docs/guide/setup.md", "docs/guide/install.md")
	repo.Git(t, "commit", "-q", "-m", "rename setup to install")
	build()

	public := filepath.Join(cfg.Output.Directory, "public")
	redirects, err := os.ReadFile(filepath.Join(public, "_redirects"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "/docs/moving/guide/setup/ /docs/moving/guide/install/ 301\n"; string(redirects) != want {
		t.Errorf("_redirects:\n%s\nwant:\n%s", redirects, want)
	}
	if page, err := os.ReadFile(filepath.Join(public, "docs", "moving", "guide", "setup", "index.html")); err != nil ||
		!strings.Contains(string(page), `url=/docs/moving/guide/install/"`) {
		t.Errorf("no redirect page at the old URL: %v\n%s", err, page)
	}
	srv := httptest.NewServer(docs.New(docs.Options{PublicDir: public, Log: zerolog.Nop()}))
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(srv.URL + "/docs/moving/guide/setup/?from=bookmark")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/docs/moving/guide/install/?from=bookmark" {
		t.Errorf("old URL: %d Location %q, want 301 to the new one with the query", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = client.Get(srv.URL + "/docs/moving/guide/install/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("new URL: %d, want 200", resp.StatusCode)
	}
}
