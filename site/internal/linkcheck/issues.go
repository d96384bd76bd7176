package linkcheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docweave/docweave/site/internal/model"
)

// FragmentIssue is the LINK_FRAGMENT_MISSING issue of the link dest on
// line of file, whose fragment frag names no element of the page at
// pageURL (whose ids are ids): it names the target and the fragment, and
// the page's id that differs from it in case or punctuation only, when it
// has one.
func FragmentIssue(file string, line int, dest, pageURL, frag string, ids map[string]bool) model.Issue {
	msg := fmt.Sprintf("line %d: link %q: the page %s has no element with id %q", line, dest, pageURL, frag)
	if strings.HasPrefix(dest, "#") {
		msg = fmt.Sprintf("line %d: link %q: the page itself has no element with id %q", line, dest, frag)
	}
	if near := closestID(frag, ids); near != "" {
		msg += fmt.Sprintf(" (it has %q)", near)
	}
	return model.Issue{Code: model.IssueLinkFragmentMissing, Path: file, Message: msg}
}

// closestID is the id of ids that equals frag but for case and
// punctuation, "" when none does (the first in order when several do).
func closestID(frag string, ids map[string]bool) string {
	want := fold(frag)
	var found []string
	for id := range ids {
		if fold(id) == want {
			found = append(found, id)
		}
	}
	if len(found) == 0 {
		return ""
	}
	sort.Strings(found)
	return found[0]
}

// fold keeps the letters and digits of s, lower-cased.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 {
			b.WriteRune(r)
		}
	}
	return b.String()
}
