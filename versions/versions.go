// Package versions chooses which branches and tags of a repository become
// documentation versions, by the versioning section: strategy, branch and
// tag globs, default_branch_only and max_versions_per_repo. It is pure: it
// takes a remote's listing (gitx.ListRefs) and returns the versions, newest
// first, so the rule can be tested and explained on its own.
// The discover stage uses it to expand a repository into one clone job per
// version.
package versions

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/gitx"
)

// Version is one ref chosen as a documentation version.
type Version struct {
	Name    string // the branch or tag name, e.g. "main", "v1.1.0"
	Slug    string // its directory and URL segment, unique in the repository (Slug)
	Ref     string // full reference name to check out: refs/heads/… or refs/tags/…
	Commit  string
	Tag     bool
	Default bool // the repository's default branch
}

// Select applies the versioning rules to a listing. The default branch is
// always a version (with tags_only too), so every repository has a default
// version for /docs/<repo>/ to reach; default_branch_only keeps it alone.
// A glob's * also matches names with slashes when it is the whole pattern
// (feature/x matches "*"). Order, which also
// decides what max_versions_per_repo keeps: the default branch first, then
// tags that parse as semantic versions, highest first (a release outranks
// its pre-releases), then other branches and then other tags, by name.
func Select(refs []gitx.RemoteRef, defaultBranch string, v config.Versioning) []Version {
	var out []Version
	for _, r := range refs {
		isDefault := !r.Tag && r.Name == defaultBranch
		switch {
		case v.DefaultBranchOnly && !isDefault:
			continue
		case !v.DefaultBranchOnly && r.Tag && (v.Strategy == "branches_only" || !matchAny(v.TagPatterns, r.Name)):
			continue
		case !v.DefaultBranchOnly && !r.Tag && (v.Strategy == "tags_only" && !isDefault || !matchAny(v.BranchPatterns, r.Name)):
			continue
		}
		out = append(out, Version{Name: r.Name, Ref: r.FullName(), Commit: r.Commit, Tag: r.Tag, Default: isDefault})
	}
	sort.SliceStable(out, func(i, j int) bool { return less(out[i], out[j]) })
	if v.MaxVersionsPerRepo > 0 && len(out) > v.MaxVersionsPerRepo {
		out = out[:v.MaxVersionsPerRepo]
	}
	taken := map[string]bool{}
	for i := range out {
		out[i].Slug = uniqueSlug(Slug(out[i].Name), taken)
	}
	return out
}

// Slug turns a branch or tag name into one path segment that is safe in a
// directory name and a URL and that Hugo does not treat specially: "/"
// becomes "-" (feature/x → feature-x), every character other than ASCII
// letters, digits, ".", "_" and "-" becomes "-", and leading dots,
// underscores and dashes are dropped (Hugo hides dot-directories).
func Slug(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.TrimLeft(b.String(), "._-")
	if s == "" {
		return "version"
	}
	return s
}

// uniqueSlug returns slug, or slug-2, slug-3… when an earlier (newer)
// version already took it (feature/x and feature-x both exist). Slugs are
// compared ignoring case, as Hugo's page paths are: Main and main clash.
func uniqueSlug(slug string, taken map[string]bool) string {
	s := slug
	for n := 2; taken[strings.ToLower(s)]; n++ {
		s = slug + "-" + strconv.Itoa(n)
	}
	taken[strings.ToLower(s)] = true
	return s
}

// less orders versions newest first, as documented on Select.
func less(a, b Version) bool {
	if a.Default != b.Default {
		return a.Default
	}
	sa, aok := parseSemver(a.Name)
	sb, bok := parseSemver(b.Name)
	switch {
	case a.Tag && b.Tag && aok && bok:
		return sa.greater(sb)
	case a.Tag && aok != (b.Tag && bok):
		return a.Tag && aok
	case b.Tag && bok:
		return false
	case a.Tag != b.Tag:
		return !a.Tag
	}
	return a.Name < b.Name
}

func matchAny(globs []string, name string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok || g == "*" {
			return true
		}
	}
	return false
}

// semver is a parsed vMAJOR.MINOR.PATCH[-pre] (the v is optional).
type semver struct {
	nums [3]int
	pre  string
}

func parseSemver(s string) (semver, bool) {
	s = strings.TrimPrefix(s, "v")
	core, pre, _ := strings.Cut(s, "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return semver{}, false
	}
	var v semver
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return semver{}, false
		}
		v.nums[i] = n
	}
	v.pre = pre
	return v, true
}

// greater compares by number, then a release above its pre-releases, then
// pre-release strings.
func (a semver) greater(b semver) bool {
	for i := range a.nums {
		if a.nums[i] != b.nums[i] {
			return a.nums[i] > b.nums[i]
		}
	}
	if (a.pre == "") != (b.pre == "") {
		return a.pre == ""
	}
	return a.pre > b.pre
}
