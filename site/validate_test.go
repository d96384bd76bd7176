package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

func TestValidateRejectsBadOptionsNamingTheKey(t *testing.T) {
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "old.html"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	good := func() Options {
		return Options{ProjectDir: project, PublishDir: filepath.Join(t.TempDir(), "public")}
	}

	cases := []struct {
		name   string
		mutate func(*Options)
		want   []string // substrings of the error
	}{
		{"no project", func(o *Options) { o.ProjectDir = "" }, []string{"ProjectDir", "empty"}},
		{"no content", func(o *Options) { o.ProjectDir = t.TempDir() }, []string{"ProjectDir", "content/"}},
		{"relative publish dir", func(o *Options) { o.PublishDir = "public" }, []string{"PublishDir", "absolute"}},
		{"publish dir not empty", func(o *Options) { o.PublishDir = full }, []string{"PublishDir", "not empty"}},
		{"publish into content", func(o *Options) { o.PublishDir = filepath.Join(project, "content", "out") }, []string{"PublishDir", "outside"}},
		{"repository without name", func(o *Options) { o.Repositories = []Repository{{ContentPath: "a"}} }, []string{"Repositories[0]", "Name"}},
		{"content path escapes", func(o *Options) { o.Repositories = []Repository{{Name: "a", ContentPath: "../a"}} }, []string{"Repositories[0] (a)", "ContentPath", "../a"}},
		{"content path absolute", func(o *Options) { o.Repositories = []Repository{{Name: "a", ContentPath: "/a"}} }, []string{"ContentPath", "relative"}},
		{"content path twice", func(o *Options) {
			o.Repositories = []Repository{{Name: "a", ContentPath: "x"}, {Name: "b", ContentPath: "X"}}
		}, []string{"Repositories[1] (b)", "also used by a"}},
		{"base url scheme", func(o *Options) { o.Generator.BaseURL = "ftp://example.org/" }, []string{"generator.base_url", "http(s)"}},
		{"base url relative", func(o *Options) { o.Generator.BaseURL = "docs/" }, []string{"generator.base_url"}},
		{"reserved param", func(o *Options) { o.Generator.Params = map[string]any{"Docweave": 1} }, []string{"generator.params.Docweave", "reserved"}},
		{"theme variant", func(o *Options) { o.Generator.Params = map[string]any{"themeVariant": "neon"} }, []string{"generator.params.themeVariant", "neon", "auto, light, dark"}},
		{"disable search type", func(o *Options) { o.Generator.Params = map[string]any{"disableSearch": "yes"} }, []string{"generator.params.disableSearch", "true or false"}},
		{"collapsible menu type", func(o *Options) { o.Generator.Params = map[string]any{"collapsibleMenu": 1} }, []string{"generator.params.collapsibleMenu", "true or false"}},
		{"live reload port text", func(o *Options) { o.Generator.Params = map[string]any{LiveReloadPortParam: "8083"} }, []string{"generator.params.docweaveLiveReloadPort", "port number"}},
		{"live reload port range", func(o *Options) { o.Generator.Params = map[string]any{"docweavelivereloadport": 70000} }, []string{"docweavelivereloadport", "65535"}},
		{"edit url scheme", func(o *Options) {
			o.Repositories = []Repository{{Name: "a", ContentPath: "a", EditURL: "ftp://example.org/{path}"}}
		}, []string{"Repositories[0] (a)", "EditURL", "http(s)"}},
		{"edit url without placeholder", func(o *Options) {
			o.Repositories = []Repository{{Name: "a", ContentPath: "a", EditURL: "https://example.org/edit"}}
		}, []string{"EditURL", "{path}"}},
		{"empty taxonomy", func(o *Options) { o.Generator.Taxonomies = map[string]string{"tag": ""} }, []string{"generator.taxonomies", "plural"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := good()
			c.mutate(&opts)
			_, err := validate(opts)
			if err == nil {
				t.Fatal("validate accepted bad options")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestValidateNeverEchoesBaseURLCredentials(t *testing.T) {
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"https://user:s3cret@docs.example.org/", "gopher://user:s3cret@docs.example.org/"} {
		_, err := validate(Options{
			ProjectDir: project,
			PublishDir: filepath.Join(t.TempDir(), "p"),
			Generator:  config.Generator{BaseURL: raw},
		})
		if err == nil {
			t.Fatalf("%s accepted", raw)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("error leaks the password: %v", err)
		}
	}
}

func TestValidateNeverEchoesEditURLCredentials(t *testing.T) {
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"https://user:s3cret@forge.example.org/edit/{path}", "https://user:s3cret@forge.example.org/edit/"} {
		_, err := validate(Options{
			ProjectDir:   project,
			PublishDir:   filepath.Join(t.TempDir(), "p"),
			Repositories: []Repository{{Name: "a", ContentPath: "a", EditURL: raw}},
		})
		if err == nil {
			t.Fatalf("%s accepted", raw)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("error leaks the password: %v", err)
		}
	}
}

func TestValidateAcceptsGoodOptions(t *testing.T) {
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"", "/", "/handbook/", "https://docs.example.org/", "http://localhost:8080/sub/"} {
		got, err := validate(Options{
			ProjectDir:   project + "/./",
			PublishDir:   filepath.Join(t.TempDir(), "public"),
			Repositories: []Repository{{Name: "a", ContentPath: "a", EditURL: "https://github.com/o/a/edit/main/docs/{path}"}, {Name: "b", Forge: "github", ContentPath: "github/b"}},
			Generator: config.Generator{
				BaseURL: base,
				Params: map[string]any{"themeVariant": "Dark", "disableSearch": false, "custom": []int{1},
					"collapsibleMenu": true, "showVisitedLinks": false, LiveReloadPortParam: 8083},
				Taxonomies: map[string]string{"tag": "tags", "team": "teams"},
			},
		})
		if err != nil {
			t.Errorf("base %q: %v", base, err)
			continue
		}
		if got.ProjectDir != project {
			t.Errorf("ProjectDir = %q, want the cleaned absolute %q", got.ProjectDir, project)
		}
	}
}
