package theme

import (
	"io/fs"
	"strings"
	"testing"
)

func TestFSHoldsTheLayoutsAndStyleSheet(t *testing.T) {
	for _, name := range []string{
		"layouts/baseof.html",
		"layouts/home.html",
		"layouts/page.html",
		"layouts/section.html",
		"layouts/list.html",
		"layouts/404.html",
		"layouts/taxonomy.html",
		"layouts/term.html",
		"layouts/_partials/breadcrumbs.html",
		"layouts/_partials/toc.html",
		"layouts/_partials/pager.html",
		"layouts/_partials/edit-link.html",
		"layouts/_partials/scripts.html",
		"layouts/_shortcodes/hint.html",
		"layouts/home.searchindex.json",
		"layouts/_partials/menu.html",
		"layouts/_partials/title.html",
		"assets/css/docweave.css",
		"assets/js/docweave.js",
		"assets/js/livereload.js",
	} {
		if _, err := fs.Stat(FS(), name); err != nil {
			t.Errorf("theme lacks %s: %v", name, err)
		}
	}
}

func TestStyleSheetHasLightAndDarkVariants(t *testing.T) {
	css, err := fs.ReadFile(FS(), "assets/css/docweave.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"prefers-color-scheme: dark", `[data-theme="dark"]`, `:not([data-theme="light"])`} {
		if !strings.Contains(string(css), want) {
			t.Errorf("style sheet lacks %s", want)
		}
	}
}

func TestEveryTemplateStartsWithAComment(t *testing.T) {
	err := fs.WalkDir(FS(), "layouts", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(FS(), p)
		if err != nil {
			return err
		}
		if !strings.HasPrefix(string(data), "{{- /*") && !strings.HasPrefix(string(data), "{{/*") {
			t.Errorf("%s does not start with a comment saying what it is for", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestScriptsUseNoNetworkButTheSite(t *testing.T) {
	for _, name := range []string{"assets/js/docweave.js", "assets/js/livereload.js", "assets/css/docweave.css"} {
		data, err := fs.ReadFile(FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"http://", "https://", "//cdn", "@import", "innerHTML", "eval("} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s contains %q: the theme loads nothing from elsewhere and builds no HTML from strings", name, bad)
			}
		}
	}
}

func TestLiveReloadClientFollowsTheServersEvents(t *testing.T) {
	data, err := fs.ReadFile(FS(), "assets/js/livereload.js")
	if err != nil {
		t.Fatal(err)
	}
	js := string(data)
	for _, want := range []string{`"/sse"`, `location.protocol`, `location.hostname`, `addEventListener("reload"`, `addEventListener("hello"`, `EventSource.CLOSED`, `data-port`} {
		if !strings.Contains(js, want) {
			t.Errorf("livereload.js lacks %s", want)
		}
	}
}
