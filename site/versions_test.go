package site

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/site/internal/pages"
)

func TestValidateVersionsRefusesBadVersionsNamingThem(t *testing.T) {
	ok := func() []Version {
		return []Version{
			{Name: "main", Slug: "main", Default: true, Commit: gammaMainCommit},
			{Name: "feature/x", Slug: "feature-x", EditURL: "https://forge.example.org/o/r/edit/feature/x/docs/{path}"},
			{Name: "v1.1.0", Slug: "v1.1.0", Tag: true},
		}
	}
	if err := validateVersions(ok()); err != nil {
		t.Fatalf("valid versions refused: %v", err)
	}
	if err := validateVersions(nil); err != nil {
		t.Fatalf("no versions refused: %v", err)
	}
	cases := []struct {
		name   string
		change func(vs []Version) []Version
		want   []string
	}{
		{"empty name", func(vs []Version) []Version { vs[1].Name = " "; return vs }, []string{"Versions[1]", "Name is empty"}},
		{"empty slug", func(vs []Version) []Version { vs[1].Slug = ""; return vs }, []string{"Versions[1] (feature/x)", "Slug is empty"}},
		{"slash in slug", func(vs []Version) []Version { vs[1].Slug = "feature/x"; return vs }, []string{"Versions[1] (feature/x)", `Slug "feature/x"`, "one URL path segment"}},
		{"dot slug", func(vs []Version) []Version { vs[1].Slug = ".."; return vs }, []string{`Slug ".."`, `not starting with "."`}},
		{"hidden slug", func(vs []Version) []Version { vs[1].Slug = "_x"; return vs }, []string{`Slug "_x"`}},
		{"space in slug", func(vs []Version) []Version { vs[1].Slug = "a b"; return vs }, []string{`Slug "a b"`}},
		{"duplicate slug", func(vs []Version) []Version { vs[2].Slug = "MAIN"; return vs }, []string{"Versions[2] (v1.1.0)", `Slug "MAIN" is also used by version main`}},
		{"no default", func(vs []Version) []Version { vs[0].Default = false; return vs }, []string{"0 marked Default", "exactly one default"}},
		{"two defaults", func(vs []Version) []Version { vs[2].Default = true; return vs }, []string{"2 marked Default"}},
		{"bad commit", func(vs []Version) []Version { vs[0].Commit = "main~1"; return vs }, []string{"Versions[0] (main)", `Commit "main~1"`, "hexadecimal"}},
		{"edit URL without placeholder", func(vs []Version) []Version { vs[1].EditURL = "https://forge.example.org/edit"; return vs }, []string{"Versions[1] (feature/x)", "EditURL", "{path}"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := validateVersions(c.change(ok()))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range c.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestValidateVersionsKeepsEditURLCredentialsOutOfErrors(t *testing.T) {
	err := validateVersions([]Version{{Name: "main", Slug: "main", Default: true, EditURL: "https://bob:s3cret@forge.example.org/edit/{path}"}})
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "without user credentials") {
		t.Errorf("error = %v; want a refusal that does not repeat the password", err)
	}
}

func TestRenderRefusesBadVersionsNamingTheRepository(t *testing.T) {
	logs := &bytes.Buffer{}
	opts := Options{
		ProjectDir:   newFixtureProject(t),
		PublishDir:   filepath.Join(t.TempDir(), "public"),
		Generator:    fixtureGenerator(),
		Repositories: []Repository{{Name: "alpha", ContentPath: "alpha", Versions: []Version{{Name: "main", Slug: "main"}}}},
		Logger:       zerolog.New(logs),
	}
	_, err := Render(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "site: Repositories[0] (alpha): Versions: 0 marked Default") {
		t.Errorf("Render error = %v; want one naming Repositories[0] (alpha) and its missing default version", err)
	}
}

func TestSitePathAndVersionURL(t *testing.T) {
	for baseURL, want := range map[string]string{
		"":                                   "/",
		"/":                                  "/",
		"/handbook":                          "/handbook/",
		"/handbook/":                         "/handbook/",
		"https://docs.example.org":           "/",
		"https://docs.example.org/handbook/": "/handbook/",
	} {
		if got := sitePath(baseURL); got != want {
			t.Errorf("sitePath(%q) = %q, want %q", baseURL, got, want)
		}
	}
	if got := versionURL("/handbook/", "github/gamma", "v1.1.0"); got != "/handbook/docs/github/gamma/v1.1.0/" {
		t.Errorf("versionURL = %q", got)
	}
	if got := versionURL("/", "gamma", "main"); got != "/docs/gamma/main/" {
		t.Errorf("versionURL = %q", got)
	}
}

func TestVersionParamsLeaveNonVersionedRepositoriesAlone(t *testing.T) {
	entry := map[string]any{"name": "delta"}
	versionParams(entry, Repository{Name: "delta", ContentPath: "delta"}, "/", true)
	if len(entry) != 1 {
		t.Errorf("a non-versioned repository's entry gained keys: %v", entry)
	}
	entry = map[string]any{}
	versionParams(entry, versionedRepos()[0], "/", true)
	if entry["defaultVersion"] != "main" {
		t.Errorf("defaultVersion = %v", entry["defaultVersion"])
	}
	vs, _ := entry["versions"].([]map[string]any)
	if len(vs) != 3 || vs[1]["name"] != "v1.1.0" || vs[1]["tag"] != true || vs[1]["url"] != "/docs/gamma/v1.1.0/" || vs[1]["commit"] != gammaV110Commit {
		t.Errorf("versions = %v", vs)
	}
	// A unit's render does not get the commits: no page shows one, and a
	// commit that changed nothing of a version's files must not change
	// the version's render.
	entry = map[string]any{}
	versionParams(entry, versionedRepos()[0], "/", false)
	for _, v := range entry["versions"].([]map[string]any) {
		if _, has := v["commit"]; has {
			t.Errorf("a unit's configuration carries the commit of %v", v["name"])
		}
	}
}

func TestPlanContentGivesAVersionedRootTheRedirectPage(t *testing.T) {
	tree := pages.Tree{
		Dirs: []string{".", "gamma", "gamma/main", "gamma/main/guide", "gamma/v1.0.0", "delta"},
		Markdown: []string{
			"gamma/main/intro.md", "gamma/main/guide/install.md",
			"gamma/v1.0.0/README.md", "delta/usage.md",
		},
	}
	scan := planContent(tree, versionedRepos(), nil)
	if scan.Redirects["gamma"] != "gamma" || len(scan.Redirects) != 1 {
		t.Errorf("Redirects = %v, want gamma's root only", scan.Redirects)
	}
	if _, ok := scan.Generated["gamma"]; ok {
		t.Error("the versioned root also gets a generated title page")
	}
	// A version's root is titled like a repository's root.
	for dir, title := range map[string]string{"gamma/main": "gamma", "gamma/main/guide": "Guide", "delta": "delta", ".": "Documentation"} {
		if got := scan.Generated[dir]; got != title {
			t.Errorf("Generated[%s] = %q, want %q", dir, got, title)
		}
	}
	if scan.IndexFiles["gamma/v1.0.0"] != "gamma/v1.0.0/README.md" {
		t.Errorf("a version root's README is not its page: %v", scan.IndexFiles)
	}
}

func TestWriteVersionRedirectsWritesTheLayoutFrontMatter(t *testing.T) {
	dir := t.TempDir()
	if err := writeVersionRedirects(dir, map[string]string{"github/gamma": `Gamma "the" tool`}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "github", "gamma", "_index.md"))
	if err != nil {
		t.Fatal(err)
	}
	var front map[string]string
	if err := json.Unmarshal(data, &front); err != nil {
		t.Fatalf("front matter %s: %v", data, err)
	}
	if front["title"] != `Gamma "the" tool` || front["layout"] != versionRedirectLayout {
		t.Errorf("front matter = %v", front)
	}
}

func TestDefaultVersion(t *testing.T) {
	if v, ok := defaultVersion(versionedRepos()[0]); !ok || v.Name != "main" {
		t.Errorf("defaultVersion = %v, %v", v, ok)
	}
	if _, ok := defaultVersion(Repository{Name: "delta"}); ok {
		t.Error("a repository without versions has a default version")
	}
}
