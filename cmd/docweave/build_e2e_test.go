package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// docsRepo makes a repository with a docs/ folder of n pages plus code that
// must never reach the site.
func docsRepo(t *testing.T, title string, n int) *gittest.Repo {
	t.Helper()
	files := map[string]string{
		"README.md":      "not documentation",
		"src/main.go":    "package main",
		"docs/_index.md": fmt.Sprintf("---\ntitle: %s\n---\nWelcome to %s.\n", title, title),
	}
	for i := 1; i <= n; i++ {
		files[fmt.Sprintf("docs/guide/page%d.md", i)] = fmt.Sprintf("---\ntitle: %s page %d\ntags: [e2e]\n---\n# %s page %d\n\nBody text %s-%d.\n", title, i, title, i, strings.ToLower(title), i)
	}
	return gittest.NewRepo(t, files)
}

func readReport(t testing.TB, out string) report.Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "build-report.json"))
	if err != nil {
		t.Fatalf("build report: %v", err)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("build report: %v", err)
	}
	return rep
}

// TestBuildEndToEnd aggregates three repositories over Git smart HTTP (one of
// them missing on the server) and one over file://, and checks the exit
// code, the report and the rendered pages; a second build of unchanged
// content gives the same doc_files_hash, and a new commit changes it.
func TestBuildEndToEnd(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	alpha := docsRepo(t, "Alpha", 3)
	beta := docsRepo(t, "Beta", 2)
	delta := docsRepo(t, "Delta", 1)
	alphaURL := srv.Add(t, "alpha", alpha)
	betaURL := srv.Add(t, "beta", beta)
	missingURL := strings.Replace(betaURL, "beta.git", "does-not-exist.git", 1)

	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	cfg := filepath.Join(dir, "docweave.yaml")
	writeFile(t, cfg, fmt.Sprintf(`
repositories:
  - {name: alpha, url: %q}
  - {name: beta, url: %q}
  - {name: gamma, url: %q}
  - {name: delta, url: %q}
build:
  namespace_forges: never
  max_retries: 0
generator:
  title: E2E Docs
output:
  directory: %s
`, alphaURL, betaURL, missingURL, delta.FileURL(), out))

	res := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json")
	if res.code != 1 {
		t.Fatalf("exit code %d, want 1 (site rendered, one repository failed)\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	rep := readReport(t, out)
	if rep.ClonedRepositories != 3 || rep.FailedRepositories != 1 {
		t.Fatalf("cloned %d failed %d, want 3 and 1", rep.ClonedRepositories, rep.FailedRepositories)
	}
	if !rep.StaticRendered || rep.Outcome != report.OutcomePartial {
		t.Fatalf("static_rendered %v outcome %s", rep.StaticRendered, rep.Outcome)
	}
	// 3 + 2 + 1 guide pages and one section page per repository.
	if rep.RenderedPages != 9 {
		t.Fatalf("rendered_pages %d, want 9", rep.RenderedPages)
	}
	if !strings.HasPrefix(rep.DocFilesHash, "sha256:") || len(rep.DocFilesHash) != 71 {
		t.Fatalf("doc_files_hash %q", rep.DocFilesHash)
	}
	var gammaIssue *report.Issue
	for i, is := range rep.Issues {
		if is.Repository == "gamma" {
			gammaIssue = &rep.Issues[i]
		}
	}
	if gammaIssue == nil || gammaIssue.Code != report.CodeCloneNotFound || gammaIssue.Transient || gammaIssue.Stage != "clone" {
		t.Fatalf("gamma issue %+v in %+v", gammaIssue, rep.Issues)
	}
	for _, stage := range []string{"discover", "clone", "join", "render", "finish"} {
		if _, ok := rep.StageDurationsMS[stage]; !ok {
			t.Errorf("no duration for stage %s: %v", stage, rep.StageDurationsMS)
		}
	}
	page := func(path string) string {
		data, err := os.ReadFile(filepath.Join(out, "public", filepath.FromSlash(path)))
		if err != nil {
			t.Fatalf("page %s: %v", path, err)
		}
		return string(data)
	}
	if got := page("docs/alpha/guide/page2/index.html"); !strings.Contains(got, "Body text alpha-2.") || !strings.Contains(got, "Alpha page 2") {
		t.Fatalf("alpha page 2 lacks its title or body:\n%s", got)
	}
	if got := page("docs/delta/guide/page1/index.html"); !strings.Contains(got, "Body text delta-1.") {
		t.Fatal("the file:// repository's page is missing its body")
	}
	if _, err := os.Stat(filepath.Join(out, "public", "docs", "gamma")); !os.IsNotExist(err) {
		t.Fatalf("the failed repository left pages behind: %v", err)
	}
	// Every page names the site's icon, which is published: no 404 for a
	// favicon on every page view.
	if icon := page("favicon.svg"); !strings.HasPrefix(icon, "<svg") {
		t.Fatalf("favicon.svg is not an SVG: %.40q", icon)
	}
	if !strings.Contains(page("docs/alpha/guide/page2/index.html"), `<link rel="icon" type="image/svg+xml" href="/favicon.svg">`) {
		t.Fatal("a page does not link the favicon")
	}
	// The site is rendered in parts from the trees in the artifact store:
	// the output directory holds the site and the report, and docweave's
	// own work directory, nothing else.
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if name := e.Name(); name != "public" && name != "build-report.json" && name != ".docweave" {
			t.Errorf("the output directory holds %s", name)
		}
	}
	if rep.Units == nil || rep.Units.Rendered != 3 || rep.Units.Failed != 0 {
		t.Errorf("unit renders %+v, want 3 rendered", rep.Units)
	}
	for _, r := range rep.Repositories {
		if r.Status == "ok" && (r.Render == nil || r.Render.Outcome != report.RenderRendered || r.Render.Pages == 0) {
			t.Errorf("repository %s: render %+v", r.Name, r.Render)
		}
	}
	if strings.Contains(page("docs/alpha/guide/page1/index.html"), "package main") {
		t.Fatal("non-documentation files reached the site")
	}

	// Unchanged content: same fingerprint. A commit: a different one.
	again := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json")
	if again.code != 1 {
		t.Fatalf("second build exit %d\n%s", again.code, again.stderr)
	}
	if rep2 := readReport(t, out); rep2.DocFilesHash != rep.DocFilesHash || rep2.BuildID == rep.BuildID {
		t.Fatalf("unchanged content: hash %s → %s, build %s → %s", rep.DocFilesHash, rep2.DocFilesHash, rep.BuildID, rep2.BuildID)
	}
	alpha.Commit(t, map[string]string{"docs/guide/page1.md": "# Alpha page 1\n\nEdited body.\n"}, "edit")
	third := run(t, dir, nil, "build", "-c", cfg, "--log-format", "json")
	if third.code != 1 {
		t.Fatalf("third build exit %d\n%s", third.code, third.stderr)
	}
	rep3 := readReport(t, out)
	if rep3.DocFilesHash == rep.DocFilesHash {
		t.Fatal("an edited page kept doc_files_hash")
	}
	if !strings.Contains(page("docs/alpha/guide/page1/index.html"), "Edited body.") {
		t.Fatal("the edited page was not republished")
	}
}

func TestBuildExitCodes(t *testing.T) {
	repo := docsRepo(t, "Solo", 1)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")

	good := filepath.Join(dir, "good.yaml")
	writeFile(t, good, fmt.Sprintf("repositories:\n  - {name: solo, url: %q}\noutput: {directory: %s}\n", repo.FileURL(), out))
	if res := run(t, dir, nil, "build", "-c", good, "--log-format", "json"); res.code != 0 {
		t.Fatalf("all repositories built: exit %d, want 0\n%s", res.code, res.stderr)
	}
	if rep := readReport(t, out); rep.Outcome != report.OutcomeSuccess || rep.RenderedPages < 1 {
		t.Fatalf("report %+v", rep)
	}

	// Every repository failing renders nothing and keeps the last good site.
	allBad := filepath.Join(dir, "bad.yaml")
	writeFile(t, allBad, fmt.Sprintf("repositories:\n  - {name: solo, url: %q}\nbuild: {max_retries: 0}\noutput: {directory: %s}\n", "file://"+filepath.Join(dir, "nowhere"), out))
	if res := run(t, dir, nil, "build", "-c", allBad, "--log-format", "json"); res.code != 2 {
		t.Fatalf("no repository built: exit %d, want 2\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "public", "docs", "solo", "guide", "page1", "index.html")); err != nil {
		t.Fatalf("a failed build replaced the last good site: %v", err)
	}

	invalid := filepath.Join(dir, "invalid.yaml")
	writeFile(t, invalid, "repositories:\n  - {url: x}\nbuild: {clone_strategy: sometimes}\n")
	res := run(t, dir, nil, "build", "-c", invalid)
	if res.code != 2 || !strings.Contains(res.stderr, "build.clone_strategy") || !strings.Contains(res.stderr, "repositories[0].name") {
		t.Fatalf("invalid config: exit %d, stderr:\n%s", res.code, res.stderr)
	}
}

func TestValidateAndInit(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "docweave.yaml")
	if res := run(t, dir, []string{"GIT_ACCESS_TOKEN=x"}, "init", "-c", cfg); res.code != 0 {
		t.Fatalf("init: %d %s", res.code, res.stderr)
	}
	if res := run(t, dir, nil, "init", "-c", cfg); res.code == 0 {
		t.Fatal("init overwrote an existing file without --force")
	}
	if res := run(t, dir, []string{"GIT_ACCESS_TOKEN=x"}, "validate", "-c", cfg); res.code != 0 {
		t.Fatalf("the starter configuration does not validate: %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	bad := filepath.Join(dir, "bad.yaml")
	writeFile(t, bad, "repositoriez: []\ndaemon: {http: {docs_port: 9000, admin_port: 9000}}\n")
	res := run(t, dir, nil, "validate", "-c", bad)
	if res.code != 1 || !strings.Contains(res.stderr, "repositoriez") || !strings.Contains(res.stderr, "9000") {
		t.Fatalf("validate of a bad file: exit %d\n%s", res.code, res.stderr)
	}
}

func TestHelpForEveryCommand(t *testing.T) {
	for _, c := range []string{"build", "validate", "init", "version", "daemon", "stage"} {
		res := run(t, t.TempDir(), nil, c, "--help")
		if res.code != 0 || !strings.Contains(res.stdout, "Usage:") || len(res.stdout) < 200 {
			t.Errorf("%s --help: exit %d\n%s", c, res.code, res.stdout)
		}
		// Help speaks the current key names only; the old ones still load.
		for _, old := range []string{"broker_url", "nats_url", "embedded_broker"} {
			if strings.Contains(res.stdout, old) {
				t.Errorf("%s --help names the old key %s", c, old)
			}
		}
	}
	if res := run(t, t.TempDir(), nil, "version"); res.code != 0 || !strings.Contains(res.stdout, "hugo v0.165.0") {
		t.Errorf("version: %d %q", res.code, res.stdout)
	}
}
