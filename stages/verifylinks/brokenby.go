package verifylinks

import (
	"net/url"
	"strings"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/report"
)

// markBrokenBy fills, on each internal broken-link event whose link this
// build broke by removing its target in another repository, the link's
// line and that repository: the site's LINK_TARGET_REMOVED issues name
// them (the assembly found them in the units' facts; the published HTML no
// longer knows a link's line).
func markBrokenBy(evs []events.Event, issues []report.Issue) {
	type key struct{ repo, version, file, url, fragment string }
	removed := map[key]report.Issue{}
	for _, is := range issues {
		if is.Code == report.CodeLinkTargetRemoved && is.LinkedFrom != nil {
			l := is.LinkedFrom
			removed[key{l.Repository, l.Version, l.Path, l.URL, l.Fragment}] = is
		}
	}
	if len(removed) == 0 {
		return
	}
	for _, ev := range evs {
		b, ok := ev.(*events.BrokenLink)
		if !ok || !b.Internal {
			continue
		}
		page, frag, _ := strings.Cut(b.URL, "#")
		if u, err := url.Parse(page); err == nil {
			page = u.Path
		}
		if page != "/" {
			page = strings.TrimSuffix(page, "/")
		}
		if dec, err := url.PathUnescape(frag); err == nil {
			frag = dec
		}
		if is, ok := removed[key{b.Repository, b.Version, b.SourceFile, page, frag}]; ok {
			b.SourceLine, b.BrokenBy = is.LinkedFrom.Line, is.Repository
		}
	}
}
