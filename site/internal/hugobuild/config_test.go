package hugobuild

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/model"
)

func testLayout(t *testing.T) Layout {
	return NewLayout(filepath.Join(t.TempDir(), "project"), filepath.Join(t.TempDir(), "public"))
}

func TestHugoConfigCarriesTheGeneratorSettings(t *testing.T) {
	l := testLayout(t)
	g, repos := config.Generator{
		Title:       "Handbook",
		Description: "All the docs",
		BaseURL:     "https://docs.example.org/hb/",
		Params:      map[string]any{"themeVariant": "light", "custom": "x"},
		Taxonomies:  map[string]string{"team": "teams"},
	}, []model.Repository{{Name: "a", Forge: "gh", ContentPath: "gh/a"}}
	cfg := Config(g, repos, l, Plan{}, Role{})

	for key, want := range map[string]any{
		"title":         "Handbook",
		"baseURL":       "https://docs.example.org/hb/",
		"publishDir":    l.PublishDir,
		"cacheDir":      l.CacheDir,
		"themesDir":     l.ThemesDir,
		"enableGitInfo": false,
		"taxonomies":    map[string]string{"team": "teams"},
	} {
		if !reflect.DeepEqual(cfg[key], want) {
			t.Errorf("%s = %v, want %v", key, cfg[key], want)
		}
	}
	params := cfg["params"].(map[string]any)
	if params["description"] != "All the docs" || params["custom"] != "x" || params["themeVariant"] != "light" {
		t.Errorf("params = %v", params)
	}
	entries := params[config.ReservedParam].(map[string]any)["repositories"].([]map[string]any)
	if len(entries) != 1 || entries[0]["name"] != "a" || entries[0]["forge"] != "gh" || entries[0]["path"] != "gh/a" {
		t.Errorf("params.docweave.repositories = %v", entries)
	}
	// The assembly writes the search index itself, from the units' entries.
	if got := cfg["outputs"].(map[string]any)["home"]; !reflect.DeepEqual(got, []string{"html"}) {
		t.Errorf("home outputs = %v", got)
	}
	unit := Config(g, repos, l, Plan{}, Role{Units: []string{"gh/a"}})
	if got := unit["outputs"].(map[string]any)["home"]; !reflect.DeepEqual(got, []string{linkOnlyOutputFormat, unitFactsOutputFormat, searchOutputFormat}) {
		t.Errorf("a unit's home outputs = %v", got)
	}
	if got := unit["params"].(map[string]any)[config.ReservedParam].(map[string]any)["units"]; !reflect.DeepEqual(got, []string{"gh/a"}) {
		t.Errorf("a unit's params.docweave.units = %v", got)
	}
	if g.Params[config.ReservedParam] != nil {
		t.Error("Config modified the caller's params map")
	}
}

func TestHugoConfigDefaults(t *testing.T) {
	cfg := Config(config.Generator{Params: map[string]any{"DisableSearch": true}}, nil, testLayout(t), Plan{}, Role{})
	if cfg["title"] != "Documentation" {
		t.Errorf("default title = %v", cfg["title"])
	}
	if !reflect.DeepEqual(cfg["taxonomies"], defaultTaxonomies) {
		t.Errorf("default taxonomies = %v", cfg["taxonomies"])
	}
	if got := cfg["outputs"].(map[string]any)["home"]; !reflect.DeepEqual(got, []string{"html"}) {
		t.Errorf("home outputs with disableSearch = %v, want [html]", got)
	}
}

func TestHugoConfigForbidsNetworkExecAndEnvironment(t *testing.T) {
	sec := Config(config.Generator{}, nil, testLayout(t), Plan{}, Role{})["security"].(map[string]any)
	none := []string{"none"}
	checks := map[string]any{
		"exec.allow":   sec["exec"].(map[string]any)["allow"],
		"exec.osEnv":   sec["exec"].(map[string]any)["osEnv"],
		"funcs.getenv": sec["funcs"].(map[string]any)["getenv"],
		"http.urls":    sec["http"].(map[string]any)["urls"],
	}
	for key, got := range checks {
		if !reflect.DeepEqual(got, none) {
			t.Errorf("security.%s = %v, want [none]", key, got)
		}
	}
}

func TestMountsMapContentIndexFilesAndStatic(t *testing.T) {
	l := testLayout(t)
	scan := ContentScan{
		IndexFiles: map[string]string{"b": "b/index.md", "a/x": "a/x/index.markdown"},
		Shadowed:   []string{"c/index.md"},
	}
	got := mounts(l, Plan{Scan: scan})
	if len(got) != 5 {
		t.Fatalf("%d mounts, want 5: %v", len(got), got)
	}
	content := got[0]
	if content["source"] != "content" || content["target"] != "content/docs" {
		t.Errorf("first mount = %v", content)
	}
	files := content["files"].([]string)
	if !reflect.DeepEqual(files[:3], []string{"! /a/x/index.markdown", "! /b/index.md", "! /c/index.md"}) {
		t.Errorf("content mount starts with %v, want the index files excluded in order", files[:3])
	}
	if got[1]["source"] != l.SectionsDir || got[1]["target"] != "content/docs" {
		t.Errorf("sections mount = %v", got[1])
	}
	if got[2]["source"] != "content/a/x/index.markdown" || got[2]["target"] != "content/docs/a/x/_index.markdown" {
		t.Errorf("index mount = %v", got[2])
	}
	if got[4]["target"] != "static/docs" {
		t.Errorf("last mount = %v, want the static one", got[4])
	}
}

func TestMountsReadCheckedCopiesAndLeaveOutBrokenPages(t *testing.T) {
	l := testLayout(t)
	plan := Plan{
		Scan:      ContentScan{IndexFiles: map[string]string{"r": "r/README.md"}},
		Excluded:  map[string]bool{"r/broken.md": true},
		Rewritten: map[string]bool{"r/README.md": true, "r/fixed [1].md": true},
	}
	got := mounts(l, plan)
	content := got[0]["files"].([]string)
	for _, want := range []string{"! /r/README.md", "! /r/broken.md", `! /r/fixed \[1\].md`} {
		if !slices.Contains(content, want) {
			t.Errorf("content mount files %v lack %s", content, want)
		}
	}
	pages := got[2]
	if pages["source"] != l.PagesDir || pages["target"] != "content/docs" {
		t.Fatalf("third mount = %v, want the checked copies", pages)
	}
	// The copy of the README is mounted as the directory's page only.
	if files := pages["files"].([]string); !reflect.DeepEqual(files, []string{"! /r/README.md"}) {
		t.Errorf("copies mount files = %v", files)
	}
	if got[3]["source"] != filepath.Join(l.PagesDir, "r", "README.md") || got[3]["target"] != "content/docs/r/_index.md" {
		t.Errorf("index mount = %v, want the checked copy as r/_index.md", got[3])
	}
}

func TestGlobEscapeQuotesWildcards(t *testing.T) {
	if got := globEscape(`a*b?c[d]{e}\f.md`); got != `a\*b\?c\[d\]\{e\}\\f.md` {
		t.Errorf("globEscape = %s", got)
	}
}

func TestWriteHugoConfigWritesJSON(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hugo.json")
	if err := WriteConfig(file, map[string]any{"title": "T", "params": map[string]any{"n": 1}}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(data, &back); err != nil || back["title"] != "T" {
		t.Errorf("written config = %s (%v)", data, err)
	}
	if err := WriteConfig(filepath.Join(t.TempDir(), "missing", "hugo.json"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
