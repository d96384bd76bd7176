package site

import (
	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/linkcheck"
)

// CrossUnitLink is a link of one unit's page into another unit that leads
// nowhere: its unit, file, line, destination and target URL, the unit it
// leads into, whether a page or only a fragment is missing, and whether
// this build's change to that unit removed what it names.
type CrossUnitLink = linkcheck.Broken

// CheckAcrossUnits checks the links that lead from one unit into another
// against the units' facts (each unit's render wrote its pages' ids and
// its links out into them): it returns the broken ones, and how many
// links and fragments it checked. previous are the last build's facts of
// the units this build rendered anew, by content path: a broken link whose
// target they had was broken by this build.
func CheckAcrossUnits(units []AssembledUnit, previous map[string][]byte, baseURL string) (broken []CrossUnitLink, links, fragments int, err error) {
	facts := unitFacts(units)
	broken, counts, err := linkcheck.Across(facts, previous, hugobuild.SitePath(baseURL))
	return broken, counts.Links, counts.Fragments, err
}

// CheckXrefFragments checks the fragments of the links by id into other
// units (xref:ID#fragment) against the ids of the page each id leads to,
// as CheckAcrossUnits does for links by URL: a broken one names that page
// and its unit. It returns them and how many fragments it checked.
func CheckXrefFragments(units []AssembledUnit, previous map[string][]byte, repos []Repository, baseURL string) ([]CrossUnitLink, int, error) {
	facts := unitFacts(units)
	return linkcheck.XrefFragments(facts, previous, repos, hugobuild.SitePath(baseURL))
}

// MissingXref is a link by id (xref:ID) that names no page of the site:
// its unit, file, line and destination, the id and the closest ids the
// site has.
type MissingXref = linkcheck.XrefMissing

// MissingXrefs lists the links by id of the units that lead into other
// units and whose id no unit's page declares (the assembly writes a
// redirect page for every other one).
func MissingXrefs(units []AssembledUnit, repos []Repository, baseURL string) ([]MissingXref, error) {
	facts := unitFacts(units)
	_, missing, err := linkcheck.Xrefs(facts, repos, hugobuild.SitePath(baseURL))
	return missing, err
}

// unitFacts are the units' facts as package linkcheck reads them.
func unitFacts(units []AssembledUnit) []linkcheck.Facts {
	facts := make([]linkcheck.Facts, len(units))
	for i, u := range units {
		facts[i] = linkcheck.Facts{Unit: u.Path, Facts: u.Facts}
	}
	return facts
}
