package linkcheck

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// External fragments (check_fragments): a link to https://host/page#part
// is checked by reading the page once per run, whatever number of
// fragments the site links to on it, and looking each one up among the
// ids the page's HTML has. A page that makes its headings with scripts
// cannot be checked that way; its fragments are unverifiable, not broken.

// defaultMaxPageBytes bounds how much of an external page is read to check
// its fragments (Options.MaxPageBytes).
const defaultMaxPageBytes = 5 << 20

// githubIDPrefix is the prefix GitHub gives the ids of rendered Markdown:
// its README anchor #install is the element id user-content-install.
const githubIDPrefix = "user-content-"

// githubScriptID finds GitHub's Markdown ids inside script text: its
// file pages carry the rendered Markdown as JSON for their scripts.
var githubScriptID = regexp.MustCompile(githubIDPrefix + `[^"'\\\s<>&]+`)

// pageAnchors is what one external page offers to fragments.
type pageAnchors struct {
	ids map[string]bool
	// scripts counts <script> elements; headingIDs the headings (h1–h6)
	// with an id, and the ids found in script text.
	scripts, headingIDs int
	// truncated: the page was longer than the limit and only its start
	// was read.
	truncated bool
}

// scanAnchors reads at most limit bytes of an HTML page and collects the
// ids a fragment may name: every id attribute, <a name>, and GitHub's
// user-content ids in script text.
func scanAnchors(body io.Reader, limit int64) (*pageAnchors, error) {
	counted := &countingReader{r: io.LimitReader(body, limit+1)}
	z := html.NewTokenizer(counted)
	p := &pageAnchors{ids: map[string]bool{}}
	inScript := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			p.truncated = counted.n > limit
			if err := z.Err(); err != nil && !errors.Is(err, io.EOF) {
				return p, fmt.Errorf("read page: %w", err)
			}
			return p, nil
		case html.TextToken:
			if inScript {
				for _, id := range githubScriptID.FindAll(z.Text(), -1) {
					p.ids[string(id)] = true
					p.headingIDs++
				}
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); atom.Lookup(name) == atom.Script {
				inScript = false
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if a == atom.Script {
				p.scripts++
				inScript = true
			}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				key := string(k)
				if key == "id" || key == "name" && a == atom.A {
					if id := string(v); id != "" {
						p.ids[id] = true
						if isHeading(a) && key == "id" {
							p.headingIDs++
						}
					}
				}
			}
		}
	}
}

func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// has reports whether the page has an element the fragment names: its id
// as written, or GitHub's user-content- form of it.
func (p *pageAnchors) has(fragment string) bool {
	return p.ids[fragment] || p.ids[githubIDPrefix+fragment]
}

// scripted reports whether the page looks as if scripts make its
// headings: it has scripts, and not one of its headings has an id (nor do
// its scripts carry GitHub's ids). Such a page's ids are not in its HTML.
func (p *pageAnchors) scripted() bool {
	return p.scripts > 0 && p.headingIDs == 0
}

// fragmentVerdict is the verdict of page#fragment, given the page's own
// verdict and what its HTML offers (nil when no HTML was read: another
// content type, or a redirect not followed).
func fragmentVerdict(page Verdict, p *pageAnchors, fragment string) Verdict {
	if page.Status != StatusOK {
		return page
	}
	v := page
	switch {
	case p == nil:
		v.Status, v.Reason, v.Error = StatusUnverifiable, ReasonNotHTML, "the answer is no HTML page whose ids could be read"
	case p.has(fragment):
	case p.truncated:
		v.Status, v.Reason, v.Error = StatusUnverifiable, ReasonPageTooLarge, fmt.Sprintf("no element with id %q in the part of the page read", fragment)
	case p.scripted():
		v.Status, v.Reason, v.Error = StatusUnverifiable, ReasonScriptedPage, fmt.Sprintf("no element with id %q, but the page's headings have no ids and it runs scripts, which may make them", fragment)
	default:
		v.Status, v.Reason, v.Error = StatusBroken, ReasonMissingFragment, fmt.Sprintf("no element with id %q on the page", fragment)
	}
	return v
}

// checkableFragment returns the part of an external link's fragment that
// names an element: a text directive (#:~:text=…) is dropped, and a
// fragment that is an address of a single-page application's router
// (#/guide, #!/guide) names none.
func checkableFragment(fragment string) (string, bool) {
	if i := strings.Index(fragment, ":~:"); i >= 0 {
		fragment = fragment[:i]
	}
	if fragment == "" || strings.EqualFold(fragment, "top") || strings.HasPrefix(fragment, "/") || strings.HasPrefix(fragment, "!") {
		return "", false
	}
	return fragment, true
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
