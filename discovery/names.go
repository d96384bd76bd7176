package discovery

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docweave/docweave/config"
)

// assignNames gives every repository taken a docweave name that is unique
// (ignoring case) among the configured and the discovered repositories and
// safe as a path segment. A repository keeps the name it had in the
// previous set while that name is free, so its pages do not move; a new
// one is called by its own name, or <owner>-<name> when that is taken
// (the same repository name in two organisations, or a configured
// repository of that name), with -2, -3… as the last resort. The order —
// forges as configured, then full paths — makes the result the same on
// every process. The reserved name (config.ReservedRepositoryName) is
// never given.
func assignNames(cfg *config.Config, forges []ForgeState, prev *Set) {
	used := map[string]bool{strings.ToLower(config.ReservedRepositoryName): true}
	for _, r := range cfg.Repositories {
		used[strings.ToLower(r.Name)] = true
	}
	type ref struct{ f, r int }
	var fresh []ref
	// Names kept from the previous set come first.
	for fi := range forges {
		repos := forges[fi].Repositories
		sort.Slice(repos, func(i, j int) bool { return repos[i].FullPath < repos[j].FullPath })
		old := map[string]string{}
		if p := prev.state(forges[fi].Name); p != nil {
			for _, r := range p.Repositories {
				old[r.FullPath] = r.Name
			}
		}
		for ri := range repos {
			name := old[repos[ri].FullPath]
			if name != "" && !used[strings.ToLower(name)] {
				repos[ri].Name = name
				used[strings.ToLower(name)] = true
				continue
			}
			repos[ri].Name = ""
			fresh = append(fresh, ref{fi, ri})
		}
	}
	for _, x := range fresh {
		r := &forges[x.f].Repositories[x.r]
		base := safeName(r.FullPath[strings.LastIndexByte(r.FullPath, '/')+1:])
		owner := safeName(strings.ReplaceAll(parentPath(r.FullPath), "/", "-"))
		candidates := []string{base}
		if owner != "" {
			candidates = append(candidates, owner+"-"+base)
		}
		last := candidates[len(candidates)-1]
		for n := 2; n < 100; n++ {
			candidates = append(candidates, fmt.Sprintf("%s-%d", last, n))
		}
		for _, c := range candidates {
			if !used[strings.ToLower(c)] {
				r.Name = c
				used[strings.ToLower(c)] = true
				break
			}
		}
	}
	// A repository no name could be found for (hundreds of namesakes) is
	// dropped rather than built under a clashing name.
	for fi := range forges {
		kept := forges[fi].Repositories[:0]
		for _, r := range forges[fi].Repositories {
			if r.Name == "" {
				forges[fi].Warnings = append(forges[fi].Warnings, "no free name for "+r.FullPath+"; left out")
				continue
			}
			kept = append(kept, r)
		}
		forges[fi].Repositories = kept
	}
}

// safeName makes s a safe path segment: letters, digits, '-', '_' and
// '.', not starting with '.'.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.TrimLeft(b.String(), ".")
	if out == "" && s != "" {
		return "repo"
	}
	return out
}

func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
