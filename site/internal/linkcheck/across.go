package linkcheck

import (
	"path"
	"sort"
	"strings"
)

// Facts is one unit's facts at the assembly.
type Facts struct {
	// Unit is the unit's content path.
	Unit  string
	Facts []byte
}

// Broken is a link into another unit that leads nowhere.
type Broken struct {
	// Unit is the linking unit; OutLink the link, its file and line.
	Unit string
	OutLink
	// Target is the unit whose pages the link's URL is among.
	Target string
	// NoPage is set when the URL names no page of Target; else the page
	// has no element with the link's fragment.
	NoPage bool
	// Removed is set when the last build's facts of Target had the page
	// and the fragment: this build's change to Target broke the link.
	Removed bool
}

// Counts are the figures of a check across units.
type Counts struct {
	// Links counts the links into other units checked, Fragments those of
	// them with a fragment checked against a page.
	Links, Fragments int
}

// Across checks every unit's links into other units (the out-links Unit
// wrote into its facts) against the other units' facts: each must name a
// page of the unit whose URLs it is among, or one of its aliases, and its
// fragment an id of that page. previous holds, for the units this build
// rendered anew, their facts of the last build: a broken link whose target
// was there is Removed. A URL among no unit's URLs (a page the assembly
// makes) is not checked here. Only the pages that links name are held.
func Across(units []Facts, previous map[string][]byte, basePath string) ([]Broken, Counts, error) {
	type link struct {
		unit string
		OutLink
	}
	var all []link
	wanted := map[string]bool{}
	for _, u := range units {
		f, err := readFacts(u.Facts)
		if err != nil {
			return nil, Counts{}, err
		}
		for _, l := range f.Links {
			all = append(all, link{unit: u.Unit, OutLink: l})
			wanted[l.URL] = true
		}
	}
	if len(all) == 0 {
		return nil, Counts{}, nil
	}
	roots := make([]string, 0, len(units))
	for _, u := range units {
		roots = append(roots, u.Unit)
	}
	now, err := targetsOf(units, wanted)
	if err != nil {
		return nil, Counts{}, err
	}
	before, err := previousTargets(previous, wanted)
	if err != nil {
		return nil, Counts{}, err
	}
	var out []Broken
	var c Counts
	for _, l := range all {
		target := unitOf(roots, basePath, l.URL)
		if target == "" || target == l.unit {
			continue
		}
		c.Links++
		ids, ok := now[l.URL]
		if !ok {
			_, was := before[l.URL]
			out = append(out, Broken{Unit: l.unit, OutLink: l.OutLink, Target: target, NoPage: true, Removed: was && previous[target] != nil})
			continue
		}
		if !checkable(l.Fragment) || ids == nil {
			continue // no fragment, or facts of an older docweave, without ids
		}
		c.Fragments++
		if !ids[l.Fragment] {
			out = append(out, Broken{Unit: l.unit, OutLink: l.OutLink, Target: target, Removed: previous[target] != nil && before[l.URL][l.Fragment]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, c, nil
}

// targets maps the URL keys links name to the ids of the page there; nil
// ids when the unit's facts hold none (written before they did).
type targets map[string]map[string]bool

// targetsOf reads, of the units' facts, the pages (and aliases) whose URL
// key is wanted, with their ids.
func targetsOf(units []Facts, wanted map[string]bool) (targets, error) {
	out := targets{}
	for _, u := range units {
		f, err := readFacts(u.Facts)
		if err != nil {
			return nil, err
		}
		for _, p := range f.Pages {
			keys := []string{urlKey(p.URL)}
			for _, a := range p.Aliases {
				keys = append(keys, urlKey(a))
			}
			var ids map[string]bool
			for _, k := range keys {
				if !wanted[k] {
					continue
				}
				if ids == nil && f.Anchors != nil {
					ids = map[string]bool{}
					for _, id := range f.Anchors[p.URL] {
						ids[id] = true
					}
				}
				out[k] = ids
			}
		}
	}
	return out, nil
}

// previousTargets is targetsOf the last build's facts of the units
// rendered anew (by content path); nil when there are none.
func previousTargets(previous map[string][]byte, wanted map[string]bool) (targets, error) {
	if len(previous) == 0 {
		return nil, nil
	}
	prev := make([]Facts, 0, len(previous))
	for unit, data := range previous {
		prev = append(prev, Facts{Unit: unit, Facts: data})
	}
	return targetsOf(prev, wanted)
}

// unitOf is the unit (of units, content paths) among whose URLs the URL
// key u is: the longest whose root it starts with; "" for none.
func unitOf(units []string, basePath, u string) string {
	best := ""
	for _, unit := range units {
		root := path.Join(basePath, "docs", unit)
		if (u == root || strings.HasPrefix(u, root+"/")) && len(unit) > len(best) {
			best = unit
		}
	}
	return best
}
