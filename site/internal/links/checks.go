package links

import (
	"net/url"
	"strings"
)

// A link's #fragment, and a link that leaves its unit, can only be checked
// once the pages it names are rendered: the ids a page has are in its HTML,
// and another unit renders on its own. Resolve knows each link's line,
// which the HTML no longer does, so it hands each such link on as a Check,
// for package linkcheck to settle after rendering.

// Check is one link of a page to check after rendering.
type Check struct {
	// Line is the line the link starts on in the page's file.
	Line int `json:"line"`
	// Dest is the destination as written.
	Dest string `json:"dest"`
	// Target is the page file the link names in its own unit (a slash path
	// relative to content/), the page itself for "#fragment"; empty when
	// the link leads out of the unit.
	Target string `json:"target,omitempty"`
	// To is the destination written into the page when the link leads
	// out of the unit (a site path, or a path relative to the page's URL).
	To string `json:"to,omitempty"`
	// Fragment is the link's #fragment, percent-decoded; "" for none.
	Fragment string `json:"fragment,omitempty"`
}

// checkOf is the check link l (resolved to target, given the pairs made
// so far) needs after rendering, if any: a fragment of a page of the unit,
// or any link whose destination the resolution turned into a site path,
// which may lead into another unit.
func checkOf(rel string, l pageLink, target linkTarget, pairs [][2]string, u Unit) (Check, bool) {
	if l.image {
		return Check{}, false
	}
	frag := fragmentOf(l.dest)
	if strings.HasPrefix(l.dest, "#") {
		if frag == "" {
			return Check{}, false
		}
		return Check{Line: l.line, Dest: l.dest, Target: rel, Fragment: frag}, true
	}
	if target.ok {
		if frag == "" || !u.Pages[target.path] && !u.Dirs[target.path] {
			return Check{}, false // a file's fragment is no element id
		}
		return Check{Line: l.line, Dest: l.dest, Target: target.path, Fragment: frag}, true
	}
	if n := len(pairs); n > 0 && pairs[n-1][0] == l.dest && strings.HasPrefix(pairs[n-1][1], "/") {
		return Check{Line: l.line, Dest: l.dest, To: pairs[n-1][1], Fragment: fragmentOf(pairs[n-1][1])}, true
	}
	return Check{}, false
}

// fragmentOf is dest's #fragment, percent-decoded as a browser does before
// it looks for the element.
func fragmentOf(dest string) string {
	_, frag, ok := strings.Cut(dest, "#")
	if !ok {
		return ""
	}
	if dec, err := url.PathUnescape(frag); err == nil {
		return dec
	}
	return frag
}
