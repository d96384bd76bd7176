package direct

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/httpsrv/docs"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
)

// rememberingConfig is a configuration whose builds share a broker, whose
// state bucket remembers the URLs each site published, as a daemon's do.
func rememberingConfig(t *testing.T, repos ...config.Repository) *config.Config {
	t.Helper()
	cfg := config.Default()
	cfg.Repositories = repos
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Broker.URL = natstest.StartCluster(t, 1).ClientURL(0)
	return &cfg
}

func buildOK(t *testing.T, cfg *config.Config) {
	t.Helper()
	rep, err := Build(context.Background(), cfg, Options{Log: zerolog.Nop()})
	if err != nil || rep.ExitCode() != 0 {
		t.Fatalf("build: %v %+v", err, rep)
	}
}

// checkRedirected checks that the site of cfg redirects old to new: a
// line of its map, and a redirect page at the old URL.
func checkRedirected(t *testing.T, cfg *config.Config, old, new string) {
	t.Helper()
	public := filepath.Join(cfg.Output.Directory, "public")
	redirects, err := os.ReadFile(filepath.Join(public, "_redirects"))
	if err != nil {
		t.Fatal(err)
	}
	if line := old + " " + new + " 301\n"; !strings.Contains(string(redirects), line) {
		t.Errorf("_redirects lacks %q:\n%s", line, redirects)
	}
	if page, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(old), "index.html")); err != nil ||
		!strings.Contains(string(page), `url=`+new+`"`) {
		t.Errorf("no redirect page at %s: %v\n%s", old, err, page)
	}
}

// Issue 15 (c): a file git renamed between two builds leaves its old URL
// behind as a redirect: in the site's redirect map, as a redirect page,
// and as a 301 from the docs server (query kept).
func TestARenamedFileRedirectsThroughTheDocsServer(t *testing.T) {
	body := "---\ntitle: Setup\n---\nSet it up, step by step.\n"
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Moving\n", "docs/guide/setup.md": body})
	cfg := rememberingConfig(t, config.Repository{Name: "moving", URL: repo.FileURL()})
	buildOK(t, cfg)
	repo.Git(t, "mv", "docs/guide/setup.md", "docs/guide/install.md")
	repo.Git(t, "commit", "-q", "-m", "rename setup to install")
	buildOK(t, cfg)

	checkRedirected(t, cfg, "/docs/moving/guide/setup/", "/docs/moving/guide/install/")
	public := filepath.Join(cfg.Output.Directory, "public")
	if redirects, _ := os.ReadFile(filepath.Join(public, "_redirects")); strings.Count(string(redirects), "\n") != 1 {
		t.Errorf("_redirects has more than the renamed page:\n%s", redirects)
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

// Issue 15 (b): turning versioning on moves every page below the default
// version; the unversioned URLs redirect there.
func TestVersioningOnRedirectsToTheDefaultVersion(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Handbook\n", "docs/guide.md": "# Guide\n"})
	cfg := rememberingConfig(t, config.Repository{Name: "handbook", URL: repo.FileURL()})
	buildOK(t, cfg)
	cfg.Versioning.Enabled = true
	buildOK(t, cfg)
	checkRedirected(t, cfg, "/docs/handbook/guide/", "/docs/handbook/main/guide/")
}

// Issue 15 (a): a repository of a second forge joining namespaces every
// repository by forge; the first repository's old URLs redirect to its
// namespaced ones.
func TestASecondForgeRedirectsToTheNamespacedURLs(t *testing.T) {
	local := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Local\n", "docs/guide.md": "# Guide\n"})
	cfg := rememberingConfig(t, config.Repository{Name: "alpha", URL: local.FileURL()})
	buildOK(t, cfg)
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	remote := srv.Add(t, "beta", gittest.NewRepo(t, map[string]string{"docs/index.md": "# Beta\n"}))
	cfg.Repositories = append(cfg.Repositories, config.Repository{Name: "beta", URL: remote})
	buildOK(t, cfg)
	checkRedirected(t, cfg, "/docs/alpha/guide/", "/docs/local/alpha/guide/")
	checkRedirected(t, cfg, "/docs/alpha/", "/docs/local/alpha/")
}
