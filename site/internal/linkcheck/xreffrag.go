package linkcheck

import (
	"path"

	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// XrefFragments checks the fragments of the links by id into other units
// (xref:ID#fragment): each against the ids of the page the id leads that
// link to (Xrefs), as Across checks the fragments of links by URL. A
// broken one names that page as its URL and the unit it is in as its
// Target; it is Removed when previous (the last build's facts of the
// units rendered anew) had the id on that page. Links by an id no unit
// declares are left to Xrefs (XREF_UNRESOLVED). It returns the broken
// links and how many fragments it checked.
func XrefFragments(units []Facts, previous map[string][]byte, repos []model.Repository, basePath string) ([]Broken, int, error) {
	redirects, _, err := Xrefs(units, repos, basePath)
	if err != nil || len(redirects) == 0 {
		return nil, 0, err
	}
	to := make(map[string]string, len(redirects))
	for _, r := range redirects {
		to[r.From] = urlKey(r.To)
	}
	type use struct {
		unit string
		OutLink
	}
	var uses []use
	wanted := map[string]bool{}
	prefix := path.Join("/", basePath, links.XrefDir) + "/"
	roots := make([]string, 0, len(units))
	for _, u := range units {
		roots = append(roots, u.Unit)
		f, err := readFacts(u.Facts)
		if err != nil {
			return nil, 0, err
		}
		for _, l := range f.Links {
			id, slug, ok := xrefUse(l, prefix)
			if !ok || !checkable(l.Fragment) {
				continue
			}
			page, ok := to[links.XrefPath(basePath, id, slug)]
			if !ok {
				continue
			}
			l.URL = page
			uses = append(uses, use{unit: u.Unit, OutLink: l})
			wanted[page] = true
		}
	}
	if len(uses) == 0 {
		return nil, 0, nil
	}
	now, err := targetsOf(units, wanted)
	if err != nil {
		return nil, 0, err
	}
	before, err := previousTargets(previous, wanted)
	if err != nil {
		return nil, 0, err
	}
	var out []Broken
	checked := 0
	for _, us := range uses {
		ids := now[us.URL]
		if ids == nil {
			continue // facts of an older docweave, without ids
		}
		checked++
		if !ids[us.Fragment] {
			target := unitOf(roots, basePath, us.URL)
			out = append(out, Broken{Unit: us.unit, OutLink: us.OutLink, Target: target,
				Removed: previous[target] != nil && before[us.URL][us.Fragment]})
		}
	}
	return out, checked, nil
}
