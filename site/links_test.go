package site

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// linkFixture is a repository whose documentation root is docs/, written
// the way GitBook and forges link.
func linkFixture() map[string]string {
	return map[string]string{
		"content/gb/README.md": strings.Join([]string{
			"# Home",
			"",
			"- [from the docs root](/guide/setup.md)",
			"- [from the repository root](/docs/guide/setup.md#step-2)",
			"- [relative with a fragment](guide/setup.md#step-2)",
			"- [percent-encoded](securing%5c_nats/tls.md)",
			"- [escaped](securing\\_nats/tls.md)",
			"- [a README for its directory](guide/README.md)",
			"- [an index for its directory](/reference/index.md)",
			"- [a PDF](files/manual.pdf)",
			"- ![logo](/img/logo.png)",
			"- [outside the documentation](/src/main.go)",
			"- [nowhere](missing.md)",
			"- [a site URL](reference/api/)",
			"- [a site](https://example.org/page.md) and [a place](#home) and <mailto:a@example.org>",
			"",
		}, "\n"),
		"content/gb/guide/README.md":      "# Guide\n\nBack [home](../README.md) and [setup](/guide/setup.md).\n",
		"content/gb/guide/setup.md":       "# Setup\n\n## Step 2\n\nDone. See [the API](../../reference/api/) as Hugo sites write it.\n",
		"content/gb/securing_nats/tls.md": "# TLS\n",
		"content/gb/reference/index.md":   "# Reference\n",
		"content/gb/reference/api.md":     "# API\n",
		"content/gb/files/manual.pdf":     "%PDF-1.4",
		"content/gb/img/logo.png":         "png",
	}
}

// Every form of link a forge resolves leads to the page or file it names
// on the site; a link that names nothing is reported with its line and
// left as written; no link to a .md file is left in the HTML.
func TestLinksInEveryFormResolveInAUnitRender(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, linkFixture())
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Repositories: []Repository{{Name: "gb", ContentPath: "gb", DocRoots: []string{"docs"}}}, Unit: "gb",
		Logger: zerolog.New(logs)})
	if err != nil {
		t.Fatalf("RenderUnit: %v\n%s", err, logs)
	}
	tree := publishedTree(t, publish)
	home, ok := tree["docs/gb/index.html"]
	if !ok {
		var names []string
		for n := range tree {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Fatalf("no home page; published %v", names)
	}
	for _, want := range []string{
		`href="/docs/gb/guide/setup/">from the docs root`,
		`href="/docs/gb/guide/setup/#step-2">from the repository root`,
		`href="/docs/gb/guide/setup/#step-2">relative with a fragment`,
		`href="/docs/gb/securing_nats/tls/">percent-encoded`,
		`href="/docs/gb/securing_nats/tls/">escaped`,
		`href="/docs/gb/guide/">a README for its directory`,
		`href="/docs/gb/reference/">an index for its directory`,
		`href="/docs/gb/files/manual.pdf">a PDF`,
		`src="/docs/gb/img/logo.png"`,
		`href="/src/main.go">outside the documentation`,
		`href="/docs/gb/missing.md">nowhere`,
		`href="/docs/gb/reference/api/">a site URL`,
		`href="https://example.org/page.md">a site`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if setup := tree["docs/gb/guide/setup/index.html"]; !strings.Contains(setup, `href="/docs/gb/reference/api/">the API`) {
		t.Error("a link written as the site URL of a page did not lead to it")
	}
	guide := tree["docs/gb/guide/index.html"]
	for _, want := range []string{`href="/docs/gb/">home`, `href="/docs/gb/guide/setup/">setup`} {
		if !strings.Contains(guide, want) {
			t.Errorf("guide page lacks %s", want)
		}
	}
	mdLinks := regexp.MustCompile(`<a [^>]*href="/[^"]*\.md[#"?]`) // not <link rel="alternate">: the page's Markdown copy
	for name, page := range tree {
		for _, m := range mdLinks.FindAllString(page, -1) {
			if !strings.HasSuffix(m, `href="/docs/gb/missing.md"`) {
				t.Errorf("%s keeps a link to a Markdown file: %s", name, m)
			}
		}
	}
	var got []string
	for _, is := range res.Issues {
		if is.Code == IssueLinkUnresolved {
			got = append(got, is.Path+": "+is.Message)
		}
	}
	sort.Strings(got)
	want := []string{
		`gb/README.md: line 12: link "/src/main.go" leads outside the repository's documentation roots; left as written`,
		`gb/README.md: line 13: link "missing.md" leads to no page or file of the repository's documentation`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("link issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// With the forge known, a link to a file outside the documentation roots
// leads to the forge's page of that file, and is not reported.
func TestLinksOutsideTheDocumentationGoToTheForge(t *testing.T) {
	project := filepath.Join(t.TempDir(), "project")
	writeFiles(t, project, map[string]string{
		"content/gb/README.md":      "# Home\n\nSee [the code](/src/main.go#L3) and [the build](../Makefile).\n",
		"content/gb/guide/setup.md": "# Setup\n\nRun [the script](../../scripts/install.sh).\n",
	})
	publish := filepath.Join(t.TempDir(), "public")
	res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: publish,
		Generator: fixtureGenerator(), Unit: "gb", Logger: zerolog.Nop(),
		Repositories: []Repository{{Name: "gb", ContentPath: "gb", DocRoots: []string{"docs"},
			SourceURL: "https://github.com/o/gb/blob/main/{path}"}}})
	if err != nil {
		t.Fatal(err)
	}
	tree := publishedTree(t, publish)
	for page, want := range map[string][]string{
		"docs/gb/index.html":             {`href="https://github.com/o/gb/blob/main/src/main.go#L3"`, `href="https://github.com/o/gb/blob/main/Makefile"`},
		"docs/gb/guide/setup/index.html": {`href="https://github.com/o/gb/blob/main/scripts/install.sh"`},
	} {
		for _, w := range want {
			if !strings.Contains(tree[page], w) {
				t.Errorf("%s lacks %s", page, w)
			}
		}
	}
	for _, is := range res.Issues {
		if is.Code == IssueLinkUnresolved {
			t.Errorf("reported although the forge is known: %v", is)
		}
	}
}
