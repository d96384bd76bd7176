package assembly

import (
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/docweave/docweave/site/internal/linkcheck"
)

// addXrefRedirects adds to files (the redirect files redirectFiles made)
// a redirect page for every id and version path that links by id from
// other units use (linkcheck.Xrefs), at docs/_xref/<id>/[<version>/], and
// their lines to the redirect map beside redirects. The id table is made
// from the units' facts here; a unit's render never sees another's ids.
// It returns the number of redirect pages.
func addXrefRedirects(files map[string][]byte, redirects []Redirect, opts Options, basePath string) (int, error) {
	facts := make([]linkcheck.Facts, len(opts.Units))
	for i, u := range opts.Units {
		facts[i] = linkcheck.Facts{Unit: u.Path, Facts: u.Facts}
	}
	found, _, err := linkcheck.Xrefs(facts, opts.Repositories, basePath)
	if err != nil {
		return 0, fmt.Errorf("site: assemble: links by id: %w", err)
	}
	if len(found) == 0 {
		return 0, nil
	}
	all := slices.Clone(redirects)
	for _, r := range found {
		rel := strings.TrimPrefix(r.From, strings.TrimSuffix(basePath, "/"))
		files[redirectPageFile(rel)] = xrefPage(r.To)
		all = append(all, Redirect{From: r.From, To: r.To})
	}
	slices.SortFunc(all, func(a, b Redirect) int { return strings.Compare(a.From, b.From) })
	files[RedirectsFile] = redirectMap(all)
	return len(found), nil
}

// xrefPage is a redirect page to target that keeps the #fragment the link
// by id carried (a refresh would drop it): a script replaces the location
// with target and the fragment; the refresh is there without scripts.
func xrefPage(target string) []byte {
	t := html.EscapeString(target)
	js := strings.ReplaceAll(strconv.Quote(target), "</", `<\/`)
	return fmt.Appendf(nil, "<!DOCTYPE html>\n<html lang=\"en\">\n\t<head>\n\t\t<title>%s</title>\n\t\t<link rel=\"canonical\" href=\"%s\">\n\t\t<meta charset=\"utf-8\">\n\t\t<script>location.replace(%s + location.hash)</script>\n\t\t<meta http-equiv=\"refresh\" content=\"0; url=%s\">\n\t</head>\n</html>\n", t, t, js, t)
}
