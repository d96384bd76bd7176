package site

import (
	"strings"
	"testing"
)

// TestEveryPageHasItsMarkdownCopy renders the fixture in parts: a page's
// index.md is what its reader saw (title first, no front matter, the
// GitBook and Hugo hints as quotes with their label, the table and code
// kept, the details' summary in bold), its HTML names the copy, and each
// unit's llms.txt lists its pages.
func TestEveryPageHasItsMarkdownCopy(t *testing.T) {
	opts, _, _ := renderFixture(t)
	md := readPublished(t, opts.PublishDir, "docs/alpha/guide/configure/index.md")
	if !strings.HasPrefix(md, "# Configuring Alpha\n") {
		t.Errorf("the copy does not open with its title:\n%s", md)
	}
	for _, want := range []string{
		"> **Warning**\n>\n> Back up **alpha.yaml** before upgrading.",
		"> **Note**\n>\n> Variables override the file.",
		"| `widgets` | `10` | How many widgets to keep. |",
		"```go\nfunc main() {",
		"**All variables**",
	} {
		if !strings.Contains(strings.ReplaceAll(md, "> \n", ">\n"), want) {
			t.Errorf("the copy lacks %q:\n%s", want, md)
		}
	}
	for _, unwanted := range []string{"---\ntitle:", "{%", "hint", "On this page", "Edit this page"} {
		if strings.Contains(md, unwanted) {
			t.Errorf("the copy holds %q:\n%s", unwanted, md)
		}
	}
	html := readPublished(t, opts.PublishDir, "docs/alpha/guide/configure/index.html")
	if !strings.Contains(html, `<link rel="alternate" type="text/markdown" href="/docs/alpha/guide/configure/index.md">`) {
		t.Error("the page does not name its Markdown copy")
	}
	llms := readPublished(t, opts.PublishDir, "docs/alpha/llms.txt")
	if !strings.HasPrefix(llms, "# alpha\n") || !strings.Contains(llms, "- [Configuring Alpha](/docs/alpha/guide/configure/index.md)") {
		t.Errorf("llms.txt of alpha:\n%s", llms)
	}
	full := readPublished(t, opts.PublishDir, "docs/alpha/llms-full.txt")
	if !strings.Contains(full, "# Configuring Alpha\n") || !strings.Contains(full, "<!-- /docs/alpha/guide/install/ -->") {
		t.Errorf("llms-full.txt of alpha lacks its pages:\n%.2000s", full)
	}
}

// TestTheSiteRootHasItsSitemapAndLLMsIndex: the assembly writes
// sitemap.xml (every page, with the time its content changed), robots.txt
// naming it, and llms.txt with a section per repository.
func TestTheSiteRootHasItsSitemapAndLLMsIndex(t *testing.T) {
	opts, _, _ := renderFixture(t)
	sm := readPublished(t, opts.PublishDir, "sitemap.xml")
	for _, want := range []string{"<loc>/</loc>", "<loc>/docs/alpha/guide/configure/</loc>", "<loc>/docs/beta/api/</loc>"} {
		if !strings.Contains(sm, want) {
			t.Errorf("sitemap.xml lacks %s:\n%.1500s", want, sm)
		}
	}
	if !strings.Contains(readPublished(t, opts.PublishDir, "robots.txt"), "Sitemap: /sitemap.xml") {
		t.Error("robots.txt does not name the sitemap")
	}
	llms := readPublished(t, opts.PublishDir, "llms.txt")
	for _, want := range []string{"# Fixture Docs\n\n> Two repositories, rendered for tests.\n", "\n## alpha\n", "\n## beta\n",
		"- [Configuring Alpha](/docs/alpha/guide/configure/index.md)", "[llms-full.txt](/docs/beta/llms-full.txt)"} {
		if !strings.Contains(llms, want) {
			t.Errorf("llms.txt lacks %q:\n%s", want, llms)
		}
	}
}
