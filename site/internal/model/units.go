package model

import "path"

// Unit is one unit of a site: a repository, or one version of a
// versioned one. Each is rendered by a Hugo build of its own, and the
// assembly places the units side by side.
type Unit struct {
	// Path is its content path: ContentPath, or ContentPath/Slug.
	Path string
	// Repository is the repository it belongs to.
	Repository Repository
	// Version is the version it is, for a versioned repository.
	Version *Version
}

// Units lists the units of a site's repositories in menu order: each
// repository, or each version of a versioned one in switcher order.
func Units(repos []Repository) []Unit {
	var out []Unit
	for _, r := range repos {
		if len(r.Versions) == 0 {
			out = append(out, Unit{Path: r.ContentPath, Repository: r})
			continue
		}
		for i := range r.Versions {
			out = append(out, Unit{Path: path.Join(r.ContentPath, r.Versions[i].Slug), Repository: r, Version: &r.Versions[i]})
		}
	}
	return out
}

// UnitOf finds the unit with the given content path.
func UnitOf(repos []Repository, unitPath string) (Unit, bool) {
	for _, u := range Units(repos) {
		if u.Path == unitPath {
			return u, true
		}
	}
	return Unit{}, false
}

// DefaultVersion returns the repository's default version and whether it
// has one.
func DefaultVersion(r Repository) (Version, bool) {
	for _, v := range r.Versions {
		if v.Default {
			return v, true
		}
	}
	return Version{}, false
}
