package direct

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

// Issue 16: a repository marked trusted: false reaches the published site
// without script — its pages' raw HTML sanitized, its HTML files left out
// — while a trusted repository of the same site publishes the same page
// as written. The whole path is real: a Git repository, the clone stage,
// the unit render and the assembly.
func TestDirectBuildSanitizesAnUntrustedRepository(t *testing.T) {
	page := "# Page\n\n<script>alert(1)</script>\n\nText <b onclick=\"alert(2)\">bold</b>.\n"
	files := map[string]string{"docs/page.md": page, "docs/embed.html": "<script>alert(3)</script>"}
	no := false
	cfg := config.Default()
	cfg.Repositories = []config.Repository{
		{Name: "outside", URL: gittest.NewRepo(t, files).FileURL(), Trusted: &no},
		{Name: "inside", URL: gittest.NewRepo(t, files).FileURL()},
	}
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	rep, err := Build(context.Background(), &cfg, Options{Log: zerolog.Nop()})
	if err != nil || rep.ExitCode() != 0 {
		t.Fatalf("build: %v %+v", err, rep)
	}
	read := func(rel string) string {
		data, err := os.ReadFile(filepath.Join(cfg.Output.Directory, "public", filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	outside := read("docs/outside/page/index.html")
	if strings.Contains(outside, "alert(1)") || strings.Contains(outside, "onclick") || !strings.Contains(outside, "<b>bold</b>") {
		t.Errorf("untrusted page not sanitized as expected:\n%s", outside)
	}
	if _, err := os.Stat(filepath.Join(cfg.Output.Directory, "public", "docs", "outside", "embed.html")); !os.IsNotExist(err) {
		t.Errorf("untrusted HTML file published (stat: %v)", err)
	}
	inside := read("docs/inside/page/index.html")
	if !strings.Contains(inside, "alert(1)") || !strings.Contains(inside, "onclick") {
		t.Errorf("trusted page changed:\n%s", inside)
	}
	if !strings.Contains(read("docs/inside/embed.html"), "alert(3)") {
		t.Error("trusted HTML file not published as written")
	}
}
