package model

// UnitFacts is a unit's facts file (the theme's
// layouts/home.unitfacts.json): what a unit's render tells the assembly
// about its pages, so that the pages that span units can be rendered
// without the unit's Hugo build.
type UnitFacts struct {
	Unit         string     `json:"unit"`
	RegularPages int        `json:"regularPages"`
	Pages        []PageFact `json:"pages"`
	// Summary is the first paragraph of the unit's root page, as text:
	// the front page's description of a repository that configures none.
	Summary string `json:"summary"`

	byPath map[string]string // page path → URL, made on first use (see URL)
}

// PageFact is one page of a unit, as its facts file describes it.
type PageFact struct {
	Path  string `json:"path"`
	URL   string `json:"url"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// Description is what a listing says under its link (its front
	// matter description, or its first paragraph).
	Description string              `json:"description"`
	RawTitle    string              `json:"rawTitle"`
	LinkTitle   string              `json:"linkTitle"`
	Weight      int                 `json:"weight"`
	Date        string              `json:"date"`
	File        string              `json:"file"`
	Terms       map[string][]string `json:"terms"`
	Hash        string              `json:"hash"`
	// Aliases are the page's aliases as Hugo got them (site paths).
	Aliases []string `json:"aliases"`
}

// URL returns the URL of the unit's page at path rel below its root.
func (f *UnitFacts) URL(rel string) (string, bool) {
	if f.byPath == nil {
		f.byPath = make(map[string]string, len(f.Pages))
		for _, p := range f.Pages {
			f.byPath[p.Path] = p.URL
		}
	}
	u, ok := f.byPath[rel]
	return u, ok
}
