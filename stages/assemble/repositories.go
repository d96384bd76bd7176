package assemble

import (
	"sort"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site"
)

// siteRepositories turns a build's successful outcomes into the
// repositories the site shows — one per repository, its versions gathered
// under it when versioning is on.
//
// A version's edit links go to its branch; tags get none, since a tag
// cannot be edited. When the default version failed, the newest version
// that built stands in for it, so /docs/<repo>/ still leads somewhere.
func (s *stage) siteRepositories(outcomes []events.RepoOutcome) []site.Repository {
	var (
		repos []site.Repository
		index = map[string]int{}
		ranks = map[string][]int{}
	)
	for _, o := range outcomes {
		if o.Failed {
			continue
		}
		conf, _ := s.cfg.Repository(o.Repository) // absent for a build of an older configuration: no edit links
		roots := conf.DocPaths()
		if o.Version == nil {
			repos = append(repos, site.Repository{Name: o.Repository, Forge: o.Forge, ContentPath: o.ContentPath,
				EditURL: editURL(conf.URL, o.Branch, roots), Untrusted: !conf.IsTrusted(), DocRoots: roots,
				SourceURL: sourceURL(conf.URL, o.Branch), Description: conf.Description, Updated: o.CommitTime,
				WebURL: webURL(conf.URL), OriginalSite: originalSite(conf.OriginalSite)})
			continue
		}
		v := o.Version
		i, ok := index[o.Repository]
		if !ok {
			i = len(repos)
			index[o.Repository] = i
			repos = append(repos, site.Repository{Name: o.Repository, Forge: o.Forge,
				ContentPath: strings.TrimSuffix(o.ContentPath, "/"+v.Slug), Untrusted: !conf.IsTrusted(), DocRoots: roots,
				Description: conf.Description, WebURL: webURL(conf.URL), OriginalSite: originalSite(conf.OriginalSite)})
		}
		if o.CommitTime.After(repos[i].Updated) {
			repos[i].Updated = o.CommitTime // the newest version's commit
		}
		sv := site.Version{Name: v.Name, Slug: v.Slug, Default: v.Default, Tag: v.Tag, Commit: o.Commit, SourceURL: sourceURL(conf.URL, v.Name)}
		if !v.Tag {
			sv.EditURL = editURL(conf.URL, v.Name, roots)
		}
		repos[i].Versions = append(repos[i].Versions, sv)
		ranks[o.Repository] = append(ranks[o.Repository], v.Rank)
	}
	for name, i := range index {
		orderVersions(repos[i].Versions, ranks[name])
	}
	return repos
}

// orderVersions sorts versions by rank (the switcher's order) and makes
// sure exactly one is the default.
func orderVersions(vs []site.Version, ranks []int) {
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ranks[idx[a]] < ranks[idx[b]] })
	sorted := make([]site.Version, len(vs))
	hasDefault := false
	for i, j := range idx {
		sorted[i] = vs[j]
		hasDefault = hasDefault || vs[j].Default
	}
	if !hasDefault && len(sorted) > 0 {
		sorted[0].Default = true
	}
	copy(vs, sorted)
}

// originalSite is repositories[].original_site as the site reads it; nil
// when the repository declares none.
func originalSite(o config.OriginalSite) *site.OriginalSite {
	if !o.IsSet() {
		return nil
	}
	return &site.OriginalSite{URL: o.URL, Paths: o.Paths}
}
