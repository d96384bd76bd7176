package direct

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// Issue 15: nothing in a repository runs, and nothing in it configures the
// site. One repository's docs/ is a whole Hugo site, whose content adapter
// calls a partial docweave's theme lacks (it used to fail the whole site);
// another keeps a content adapter among ordinary pages. Both build: each
// file Hugo would run or read as configuration is reported once and left
// out, and every page is rendered.
func TestDirectBuildRendersARepositoryWithoutRunningItsHugoFiles(t *testing.T) {
	hugoSite := gittest.NewRepo(t, map[string]string{
		"docs/hugo.toml":                      "baseURL = 'https://example.org/'\ntheme = 'x'\n",
		"docs/layouts/_partials/head.html":    "<title>{{ .Title }}</title>",
		"docs/layouts/_shortcodes/tabs.html":  "{{ .Inner }}",
		"docs/data/versions.yaml":             "latest: 1\n",
		"docs/i18n/en.toml":                   "next = 'Next'\n",
		"docs/static/logo.png":                "png",
		"docs/content/_index.md":              "# Hugo-built docs\n",
		"docs/content/start.md":               "---\ntitle: Start\nlayout: version-redirect\n---\nStart here.\n",
		"docs/content/guide/_content.gotmpl":  "{{ partial \"nosuch.html\" . }}",
		"docs/content/guide/install.md":       "# Install\n\nRun it.\n",
		"docs/content/guide/layouts/grids.md": "# Grid layouts\n",
		"README.md":                           "# not documentation\n",
	})
	plain := gittest.NewRepo(t, map[string]string{
		"docs/index.md":        "# Plain\n",
		"docs/_content.gotmpl": "{{ .AddPage (dict \"path\" \"injected\" \"title\" \"Injected\") }}",
		"docs/layouts/grid.md": "# Grid\n",
		"docs/config.yaml":     "example: true\n",
		"docs/data/schema.md":  "# Schema\n",
	})
	cfg := config.Default()
	cfg.Repositories = []config.Repository{
		{Name: "hugosite", URL: hugoSite.FileURL()},
		{Name: "plain", URL: plain.FileURL()},
	}
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	rep, err := Build(context.Background(), &cfg, Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 0 || rep.Outcome != report.OutcomeSuccess {
		t.Fatalf("outcome %s (exit %d), want success: %+v", rep.Outcome, rep.ExitCode(), rep.Issues)
	}
	var ignored []string
	for _, is := range rep.Issues {
		if is.Code == report.CodeHugoFileIgnored {
			if is.Severity != report.SeverityWarning || is.Stage != "clone" {
				t.Errorf("issue %+v: want a clone warning", is)
			}
			ignored = append(ignored, is.Repository+":"+is.Path)
		}
	}
	slices.Sort(ignored)
	want := []string{
		"hugosite:docs/content/guide/_content.gotmpl", "hugosite:docs/data", "hugosite:docs/hugo.toml",
		"hugosite:docs/i18n", "hugosite:docs/layouts", "plain:docs/_content.gotmpl",
	}
	if !slices.Equal(ignored, want) {
		t.Errorf("HUGO_FILE_IGNORED issues\n%q\nwant each file once:\n%q", ignored, want)
	}
	public := filepath.Join(cfg.Output.Directory, "public")
	var published []string
	err = filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(public, p)
			published = append(published, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range published {
		if strings.Contains(rel, "gotmpl") || strings.Contains(rel, "injected") || strings.Contains(rel, "hugo.toml") ||
			strings.HasPrefix(rel, "docs/hugosite/layouts/") || strings.HasPrefix(rel, "docs/hugosite/data/") {
			t.Errorf("published %s", rel)
		}
	}
	for _, page := range []string{
		"docs/hugosite/content/start/index.html", "docs/hugosite/content/guide/install/index.html",
		"docs/hugosite/content/guide/layouts/grids/index.html", "docs/hugosite/static/logo.png",
		"docs/plain/layouts/grid/index.html", "docs/plain/data/schema/index.html", "docs/plain/config.yaml",
	} {
		if !slices.Contains(published, page) {
			t.Errorf("%s not published", page)
		}
	}
	pages := map[string]int{}
	for _, r := range rep.Repositories {
		if r.Render == nil || r.Render.Outcome != report.RenderRendered {
			t.Fatalf("repository %s not rendered: %+v", r.Name, r.Render)
		}
		pages[r.Name] = r.Render.Pages
	}
	if pages["hugosite"] != 4 || pages["plain"] != 3 {
		t.Errorf("pages rendered %v, want hugosite 4 and plain 3 (every page given)", pages)
	}
}
