package hugobuild

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/pages"
)

// gammaRepos are a repository in three versions (main the default) and
// one without versions beside it.
func gammaRepos() []model.Repository {
	versions := []model.Version{
		{Name: "main", Slug: "main", Default: true},
		{Name: "v1.1.0", Slug: "v1.1.0", Tag: true, Commit: "0123abcd"},
		{Name: "v1.0.0", Slug: "v1.0.0", Tag: true},
	}
	return []model.Repository{{Name: "gamma", ContentPath: "gamma", Versions: versions}, {Name: "delta", ContentPath: "delta"}}
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
		if got := SitePath(baseURL); got != want {
			t.Errorf("SitePath(%q) = %q, want %q", baseURL, got, want)
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
	versionParams(entry, model.Repository{Name: "delta", ContentPath: "delta"}, "/", true)
	if len(entry) != 1 {
		t.Errorf("a non-versioned repository's entry gained keys: %v", entry)
	}
	entry = map[string]any{}
	versionParams(entry, gammaRepos()[0], "/", true)
	if entry["defaultVersion"] != "main" {
		t.Errorf("defaultVersion = %v", entry["defaultVersion"])
	}
	vs, _ := entry["versions"].([]map[string]any)
	if len(vs) != 3 || vs[1]["name"] != "v1.1.0" || vs[1]["tag"] != true || vs[1]["url"] != "/docs/gamma/v1.1.0/" || vs[1]["commit"] != "0123abcd" {
		t.Errorf("versions = %v", vs)
	}
	// A unit's render does not get the commits: no page shows one, and a
	// commit that changed nothing of a version's files must not change
	// the version's render.
	entry = map[string]any{}
	versionParams(entry, gammaRepos()[0], "/", false)
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
	scan := PlanContent(tree, gammaRepos(), nil)
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
	if err := WriteVersionRedirects(dir, map[string]string{"github/gamma": `Gamma "the" tool`}); err != nil {
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
	if front["title"] != `Gamma "the" tool` || front["layout"] != VersionRedirectLayout {
		t.Errorf("front matter = %v", front)
	}
}
