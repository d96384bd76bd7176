package hugobuild

import (
	"path"
	"slices"
	"strings"

	"github.com/gohugoio/hugo/media"
)

// MarkdownSuffixes are the suffixes of the files Hugo reads as Markdown:
// its own, and Docusaurus' MDX (.mdx), which the docusaurus dialect turns
// into Markdown first (the site's configuration gives Hugo this list).
var MarkdownSuffixes = append(slices.Clone(media.DefaultContentTypes.Markdown.Suffixes()), "mdx")

// MarkdownExts are the file extensions rendered as pages (MarkdownSuffixes
// with their dots). Every other file of the documentation (images, PDFs,
// HTML, AsciiDoc) is published as is at its source path.
var MarkdownExts = func() []string {
	out := make([]string, len(MarkdownSuffixes))
	for i, s := range MarkdownSuffixes {
		out[i] = "." + s
	}
	return out
}()

// OtherContentExts are the other suffixes Hugo would read as content. They
// are kept out of the content mount: HTML content is refused by Hugo's
// security policy, AsciiDoc, Pandoc and reStructuredText need external
// programs, which a render never runs, and a .gotmpl file is a content
// adapter, a template Hugo would execute (the clone stage already leaves
// these out of every repository, see docstree/hugofiles.go; this is the
// second gate, for trees stored before it). Template files are not
// published as files either.
var OtherContentExts = append(dotSuffixes(
	media.DefaultContentTypes.HTML,
	media.DefaultContentTypes.AsciiDoc,
	media.DefaultContentTypes.Pandoc,
	media.DefaultContentTypes.ReStructuredText,
	media.DefaultContentTypes.EmacsOrgMode,
), TemplateExt)

// TemplateExt is the suffix of Go template files, such as Hugo's content
// adapters (_content.gotmpl): never mounted, as content or as a file.
const TemplateExt = ".gotmpl"

func dotSuffixes(types ...media.Type) []string {
	var out []string
	for _, t := range types {
		for _, s := range t.Suffixes() {
			out = append(out, "."+s)
		}
	}
	return out
}

// IsMarkdown reports whether Hugo renders a file of this name as a page.
func IsMarkdown(name string) bool {
	return slices.Contains(MarkdownExts, strings.ToLower(path.Ext(name)))
}
