package linkcheck

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/docweave/docweave/internal/editdist"
	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// XrefRedirect is a redirect page the assembly writes for links by id:
// From is the site path a link leads to (links.XrefPath), To the page.
type XrefRedirect struct {
	From, To string
}

// XrefMissing is a link by id that names no page of the site.
type XrefMissing struct {
	// Unit is the linking unit; OutLink the link, its file and line.
	Unit string
	OutLink
	// ID is the id it names; Closest the ids of the site nearest to it
	// (by edit distance), at most three.
	ID      string
	Closest []string
}

// Xrefs settles the links by id the units' pages make into other units
// (the out-links under links.XrefDir): for each id and version path used,
// the page it leads to, as a redirect; the ones whose id no unit declares
// are missing. The id table is made here, from the units' facts, never
// carried in a message. An id declared in several repositories leads to
// the linking page's own repository when it declares it, else to the
// first repository (in configuration order) that does. The version is the
// linking page's own when the target repository has it and it declares
// the id, else the repository's default version (or, lacking the id
// there, the first version that declares it).
func Xrefs(units []Facts, repos []model.Repository, basePath string) ([]XrefRedirect, []XrefMissing, error) {
	declared := map[string]map[string]string{} // unit → id → URL
	type use struct {
		unit string
		OutLink
		id, slug string
	}
	var uses []use
	prefix := path.Join("/", basePath, links.XrefDir) + "/"
	for _, u := range units {
		f, err := readFacts(u.Facts)
		if err != nil {
			return nil, nil, err
		}
		if len(f.XrefIDs) > 0 {
			declared[u.Unit] = f.XrefIDs
		}
		for _, l := range f.Links {
			if id, slug, ok := xrefUse(l, prefix); ok {
				uses = append(uses, use{unit: u.Unit, OutLink: l, id: id, slug: slug})
			}
		}
	}
	if len(uses) == 0 {
		return nil, nil, nil
	}
	all := model.Units(repos)
	done := map[string]bool{}
	var out []XrefRedirect
	var missing []XrefMissing
	for _, us := range uses {
		from := links.XrefPath(basePath, us.id, us.slug)
		if done[from] {
			continue
		}
		to, ok := xrefTarget(all, declared, us.unit, us.id, us.slug)
		if !ok {
			missing = append(missing, XrefMissing{Unit: us.unit, OutLink: us.OutLink, ID: us.id, Closest: closestIDs(declared, us.id)})
			continue
		}
		done[from] = true
		out = append(out, XrefRedirect{From: from, To: to})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out, missing, nil
}

// xrefUse splits an out-link under prefix (the site's links.XrefDir) into
// the id and the version slug it names; ok is false for any other link.
func xrefUse(l OutLink, prefix string) (id, slug string, ok bool) {
	rest, ok := strings.CutPrefix(l.URL+"/", prefix)
	if !ok {
		return "", "", false
	}
	id, slug, _ = strings.Cut(strings.TrimSuffix(rest, "/"), "/")
	return id, slug, true
}

// xrefTarget is the URL of the page declaring id that a link from unit
// (version slug) leads to (see Xrefs).
func xrefTarget(all []model.Unit, declared map[string]map[string]string, unit, id, slug string) (string, bool) {
	var from string
	for _, u := range all {
		if u.Path == unit {
			from = u.Repository.ContentPath
		}
	}
	var repoOrder []string // content paths declaring id, the linking one first
	for _, u := range all {
		if _, ok := declared[u.Path][id]; ok && !slices.Contains(repoOrder, u.Repository.ContentPath) {
			if u.Repository.ContentPath == from {
				repoOrder = append([]string{from}, repoOrder...)
			} else {
				repoOrder = append(repoOrder, u.Repository.ContentPath)
			}
		}
	}
	if len(repoOrder) == 0 {
		return "", false
	}
	repo := repoOrder[0]
	var def, first string
	for _, u := range all {
		if u.Repository.ContentPath != repo {
			continue
		}
		url, ok := declared[u.Path][id]
		if !ok {
			continue
		}
		if u.Version == nil || u.Version.Slug == slug {
			return url, true
		}
		if u.Version.Default {
			def = url
		}
		if first == "" {
			first = url
		}
	}
	if def != "" {
		return def, true
	}
	return first, true
}

// closestIDs are the declared ids nearest to id by edit distance, at most
// three, within a distance of half id's length (at least 2).
func closestIDs(declared map[string]map[string]string, id string) []string {
	type cand struct {
		id string
		d  int
	}
	seen := map[string]bool{}
	var cs []cand
	limit := max(2, len(id)/2)
	for _, ids := range declared {
		for other := range ids {
			if seen[other] {
				continue
			}
			seen[other] = true
			if d := editdist.Distance(id, other); d <= limit {
				cs = append(cs, cand{other, d})
			}
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].id < cs[j].id
	})
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].id)
	}
	return out
}
