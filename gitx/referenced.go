package gitx

import (
	"path"
	"slices"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// addReferenced checks out, from the same commit, the files that
// Request.Referenced names and the sparse selection left out: a second,
// targeted checkout of exactly those paths, after the first one is on
// disk so the pages can be read. Only regular files of the commit's tree
// are taken (no links, no submodules, nothing under an unsafe name or in
// an entry prune_deny excludes), and they are written as into an empty
// directory: nothing already in the checkout is replaced or written
// through. Their entries join idx, so a later update removes them when no
// page references them any more. stats.Referenced lists every path named
// that is a file of the checkout now.
func (op *operation) addReferenced(repo *git.Repository, t *trees, root plumbing.Hash, sel selection, idx *index.Index, stats *checkoutStats) *Error {
	var extra []treeEntry
	taken := map[string]bool{}
	paths, err := resolveAnyFolder(t, root, op.req.Referenced(op.req.Dir))
	if err != nil {
		return op.corrupt("read the tree for the referenced files", err)
	}
	for _, p := range paths {
		e, ok, err := fileAt(t, root, p)
		if err != nil {
			return op.corrupt("read the tree for "+p, err)
		}
		if !ok || taken[p] || (op.req.Sparse != nil && matchGlob(op.req.Sparse.Exclude, strings.SplitN(p, "/", 2)[0])) {
			continue
		}
		taken[p] = true
		if _, in := sel.files[p]; in {
			stats.Referenced = append(stats.Referenced, p)
			continue
		}
		extra = append(extra, e)
	}
	if len(extra) == 0 {
		return nil
	}
	if gerr := op.fetchMissing(repo, extra); gerr != nil {
		return gerr
	}
	xidx, xstats, err := materialize(op.req.Dir, repo.Storer, extra, nil, true, op.req.MaxFileBytes)
	if err != nil {
		return op.corrupt("check out the referenced files", err)
	}
	tracked := map[string]bool{}
	for _, e := range xidx.Entries {
		tracked[e.Name] = true
		stats.Referenced = append(stats.Referenced, e.Name)
	}
	// A file over max_file_bytes is stood in for, untracked (oversize.go):
	// it is referenced all the same, so the collector refuses it by its
	// size and reports it.
	for _, over := range xstats.StoodIn {
		if !tracked[over] {
			stats.Referenced = append(stats.Referenced, over)
		}
	}
	idx.Entries = append(idx.Entries, xidx.Entries...)
	slices.SortFunc(idx.Entries, func(a, b *index.Entry) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(stats.Referenced)
	stats.Files += xstats.Files
	stats.Written += len(xidx.Entries)
	stats.Skipped = append(stats.Skipped, xstats.Skipped...)
	return nil
}

// AnyFolder starts a referenced path (Request.Referenced) that asks for
// the one file of the commit whose path is the rest or ends with "/" and
// the rest: a site-rooted link (/assets/docs/x.png) written for the site a
// generator makes from a folder of the repository
// (public/assets/docs/x.png). When several files match, the one in a
// static folder is taken (see OneOf), or none.
const AnyFolder = "**/"

// resolveAnyFolder replaces each AnyFolder path by the one regular file of
// the tree root that it names, or drops it when none or several do. The
// whole tree is walked once, only when some path asks.
func resolveAnyFolder(t *trees, root plumbing.Hash, paths []string) ([]string, error) {
	wanted := map[string][]string{} // base name → suffixes asked for
	var out []string
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, AnyFolder); ok && rest != "" {
			wanted[path.Base(rest)] = append(wanted[path.Base(rest)], rest)
			continue
		}
		out = append(out, p)
	}
	if len(wanted) == 0 {
		return out, nil
	}
	found := map[string][]string{} // suffix → files
	var walk func(h plumbing.Hash, prefix string, depth int) error
	walk = func(h plumbing.Hash, prefix string, depth int) error {
		tree, err := t.get(h)
		if err != nil {
			return err
		}
		for _, e := range tree.Entries {
			if unsafeName(e.Name) != "" {
				continue
			}
			p := e.Name
			if prefix != "" {
				p = prefix + "/" + e.Name
			}
			switch {
			case e.Mode == filemode.Dir && depth < maxTreeDepth:
				if err := walk(e.Hash, p, depth+1); err != nil {
					return err
				}
			case e.Mode == filemode.Regular || e.Mode == filemode.Executable || e.Mode == filemode.Deprecated:
				for _, suffix := range wanted[e.Name] {
					if p == suffix || strings.HasSuffix(p, "/"+suffix) {
						found[suffix] = append(found[suffix], p)
					}
				}
			}
		}
		return nil
	}
	if err := walk(root, "", 1); err != nil {
		return nil, err
	}
	for suffix, files := range found {
		if f, ok := OneOf(files, suffix); ok {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out, nil
}

// fileAt finds the regular file at the slash path p of the tree root;
// false when p names no such file or passes through an unsafe name.
func fileAt(t *trees, root plumbing.Hash, p string) (treeEntry, bool, error) {
	if p == "" || path.Clean(p) != p || strings.HasPrefix(p, "/") {
		return treeEntry{}, false, nil
	}
	h := root
	parts := strings.Split(p, "/")
	for i, name := range parts {
		if unsafeName(name) != "" {
			return treeEntry{}, false, nil
		}
		tree, err := t.get(h)
		if err != nil {
			return treeEntry{}, false, err
		}
		e, ok := entryNamed(tree, name)
		if !ok {
			return treeEntry{}, false, nil
		}
		if i < len(parts)-1 {
			if e.Mode != filemode.Dir {
				return treeEntry{}, false, nil
			}
			h = e.Hash
			continue
		}
		if e.Mode != filemode.Regular && e.Mode != filemode.Executable && e.Mode != filemode.Deprecated {
			return treeEntry{}, false, nil
		}
		return treeEntry{path: p, mode: e.Mode, hash: e.Hash}, true, nil
	}
	return treeEntry{}, false, nil
}
