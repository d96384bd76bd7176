package report

import (
	"regexp"
	"sort"
	"unicode/utf8"
)

// ReaderCounts says, for one repository (or version), what a reader of
// its pages meets that its authors did not mean them to: source syntax
// shown as text, images that are not there, links that lead nowhere. It is
// counted from the build's page issues (RAW_SYNTAX, LINK_UNRESOLVED and
// LINK_FRAGMENT_MISSING), so that the reader's view of real documentation
// can be measured build by build.
type ReaderCounts struct {
	// RawSyntaxPages counts the pages that show source syntax as text
	// outside code; RawSyntax counts them per kind (shortcode, liquid,
	// alert, tab, admonition, icon, mdx, snippet).
	RawSyntaxPages int            `json:"raw_syntax_pages"`
	RawSyntax      map[string]int `json:"raw_syntax,omitempty"`
	// ImagesNotPublished counts the images (Markdown or raw HTML) that name
	// no published file; DeadLinks the other links of page text that lead
	// nowhere.
	ImagesNotPublished int `json:"images_not_published"`
	DeadLinks          int `json:"dead_links"`
	// FragmentsMissing counts the links whose page is there but has no
	// element with their #fragment (LINK_FRAGMENT_MISSING).
	FragmentsMissing int `json:"fragments_missing"`
	// Examples are a few of these issues ("path: message"), at most
	// MaxReaderExamples, the first of each kind first.
	Examples []string `json:"examples,omitempty"`
}

// MaxReaderExamples is how many examples a repository's ReaderCounts
// carries.
const MaxReaderExamples = 5

var (
	// rawSyntaxKind reads the kind out of a RAW_SYNTAX issue's message
	// (the site package writes "the rendered page shows KIND syntax …").
	rawSyntaxKind = regexp.MustCompile(`^the rendered page shows (\w+) syntax`)
	// imageLink tells an image's LINK_UNRESOLVED issue ("line N: image
	// …") from a link's ("line N: link …").
	imageLink = regexp.MustCompile(`^line \d+: image `)
)

// CountForReaders fills each repository's Reader from Issues. A
// repository without any such issue gets zero counts, so that "none" is
// told apart from "not counted".
func (b *Report) CountForReaders() {
	type key struct{ repo, version string }
	counts := map[key]*ReaderCounts{}
	pages := map[key]map[string]bool{}
	firstOfKind := map[key]map[string]bool{}
	var rest = map[key][]string{}
	for i := range b.Repositories {
		r := &b.Repositories[i]
		r.Reader = &ReaderCounts{}
		counts[key{r.Name, r.Version}] = r.Reader
	}
	for _, is := range b.Issues {
		k := key{is.Repository, is.Version}
		c := counts[k]
		if c == nil {
			continue
		}
		kind := ""
		switch is.Code {
		case CodeRawSyntax:
			m := rawSyntaxKind.FindStringSubmatch(is.Message)
			if m == nil {
				continue
			}
			kind = m[1]
			if pages[k] == nil {
				pages[k] = map[string]bool{}
			}
			if !pages[k][is.Path] {
				pages[k][is.Path] = true
				c.RawSyntaxPages++
			}
			if c.RawSyntax == nil {
				c.RawSyntax = map[string]int{}
			}
			c.RawSyntax[kind]++
		case CodeLinkUnresolved:
			if imageLink.MatchString(is.Message) {
				kind = "image"
				c.ImagesNotPublished++
			} else {
				kind = "link"
				c.DeadLinks++
			}
		case CodeLinkFragmentMissing:
			kind = "fragment"
			c.FragmentsMissing++
		default:
			continue
		}
		example := shorten(is.Path+": "+is.Message, maxExample)
		if firstOfKind[k] == nil {
			firstOfKind[k] = map[string]bool{}
		}
		if !firstOfKind[k][kind] && len(c.Examples) < MaxReaderExamples {
			firstOfKind[k][kind] = true
			c.Examples = append(c.Examples, example)
		} else if len(rest[k]) < MaxReaderExamples {
			rest[k] = append(rest[k], example)
		}
	}
	for k, c := range counts {
		for _, e := range rest[k] {
			if len(c.Examples) >= MaxReaderExamples {
				break
			}
			c.Examples = append(c.Examples, e)
		}
	}
}

// maxExample bounds an example's length in bytes: the counts travel in
// the build's messages.
const maxExample = 240

// shorten cuts s to at most n bytes, at a rune's start, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ReaderSummary lists the repositories whose readers meet raw syntax,
// missing images or dead links, most affected first (by raw-syntax pages,
// then images, then links), at most n of them; more is how many more there
// are.
func (b *Report) ReaderSummary(n int) (worst []Repository, more int) {
	for _, r := range b.Repositories {
		if c := r.Reader; c != nil && c.RawSyntaxPages+c.ImagesNotPublished+c.DeadLinks+c.FragmentsMissing > 0 {
			worst = append(worst, r)
		}
	}
	sort.SliceStable(worst, func(i, j int) bool {
		a, c := worst[i].Reader, worst[j].Reader
		if a.RawSyntaxPages != c.RawSyntaxPages {
			return a.RawSyntaxPages > c.RawSyntaxPages
		}
		if a.ImagesNotPublished != c.ImagesNotPublished {
			return a.ImagesNotPublished > c.ImagesNotPublished
		}
		return a.DeadLinks > c.DeadLinks
	})
	if len(worst) > n {
		return worst[:n], len(worst) - n
	}
	return worst, 0
}
