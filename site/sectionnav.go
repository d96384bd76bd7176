package site

import "github.com/docweave/docweave/site/internal/pages"

// followAuthorsNav names and places the generated section pages of scan
// as the authors' navigation says (pages.SectionNav: a GitBook summary's
// group, a MkDocs nav section, a Docusaurus category), instead of by the
// folder's name. The pages of repositories, versions and forges keep
// theirs.
func followAuthorsNav(scan *contentScan, nav map[string]pages.SectionNav, repos []Repository) {
	fixed := sectionTitles(repos)
	for dir := range scan.Generated {
		n, ok := nav[dir]
		if _, own := fixed[dir]; !ok || own {
			continue
		}
		if n.Title != "" {
			scan.Generated[dir] = n.Title
		}
		if n.Weight != 0 {
			if scan.Weights == nil {
				scan.Weights = map[string]int{}
			}
			scan.Weights[dir] = n.Weight
		}
	}
}
