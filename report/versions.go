package report

import "sort"

// SortRepositories orders report entries by repository name, then by
// version as the switcher shows them (default first, then newest).
func SortRepositories(rs []Repository) {
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Name != rs[j].Name {
			return rs[i].Name < rs[j].Name
		}
		if rs[i].VersionRank != rs[j].VersionRank {
			return rs[i].VersionRank < rs[j].VersionRank
		}
		return rs[i].Version < rs[j].Version
	})
}

// VersionsOf summarises the versioned entries per repository, in the
// order of rs (sort it first); nil when no entry has a version.
func VersionsOf(rs []Repository) []RepositoryVersions {
	var out []RepositoryVersions
	index := map[string]int{}
	for _, r := range rs {
		if r.Version == "" {
			continue
		}
		i, ok := index[r.Name]
		if !ok {
			i = len(out)
			index[r.Name] = i
			out = append(out, RepositoryVersions{Repository: r.Name, Built: []string{}})
		}
		v := &out[i]
		if r.DefaultVersion && r.Status == "ok" {
			v.Default = r.Version
		}
		if r.Status == "ok" {
			v.Built = append(v.Built, r.Version)
		} else {
			v.Failed = append(v.Failed, r.Version)
		}
	}
	return out
}
