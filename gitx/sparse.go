package gitx

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Sparse limits an acquisition to part of a repository: only the trees and
// files under Paths (and the top-level entries Include names) are checked
// out, and a remote that serves partial clones sends no other file
// contents at all. A nil *Sparse acquires the whole repository.
type Sparse struct {
	// Paths are directories (or files) of the repository, slash-separated
	// and relative to its root, checked out with everything below them:
	// the documentation roots. "." is the whole repository.
	Paths []string
	// Include are globs on the names of top-level entries that are
	// checked out whole as well (build.prune_allow).
	Include []string
	// Exclude are globs on the names of top-level entries that are never
	// checked out, even when Paths or Include name them (build.prune_deny,
	// when prune_non_doc_paths is on).
	Exclude []string
}

// treeEntry is one file of a checkout: its path in the repository, its
// mode and the blob holding its content (a symbolic link's blob holds the
// link target).
type treeEntry struct {
	path string
	mode filemode.FileMode
	hash plumbing.Hash
}

// trees decodes each tree object once per acquisition: go-git's own
// path lookups decode a directory's tree again for every file in it, which
// makes a checkout of a folder of n files cost n² (a folder of 20,000 files
// took minutes).
type trees struct {
	st    storer.EncodedObjectStorer
	cache map[plumbing.Hash]*object.Tree
}

func newTrees(st storer.EncodedObjectStorer) *trees {
	return &trees{st: st, cache: map[plumbing.Hash]*object.Tree{}}
}

func (t *trees) get(h plumbing.Hash) (*object.Tree, error) {
	if tr, ok := t.cache[h]; ok {
		return tr, nil
	}
	tr, err := object.GetTree(t.st, h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	t.cache[h] = tr
	return tr, nil
}

// selection is the result of choosing a checkout's files from a tree.
type selection struct {
	files map[string]treeEntry
	// skipped lists entries left out because their names could escape the
	// checkout or write into .git, or because another entry has the same
	// name; a directory left out is one entry.
	skipped []SkippedPath
}

// skip records an entry left out; a directory is left out with
// everything in it.
func (s *selection) skip(p string, mode filemode.FileMode, why string) {
	if mode == filemode.Dir {
		why += reasonInDir
	}
	s.skipped = append(s.skipped, SkippedPath{Path: p, Reason: why})
}

// sorted lists the selected files in path order.
func (s selection) sorted() []treeEntry {
	out := make([]treeEntry, 0, len(s.files))
	for _, e := range s.files {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// dropConflicts removes files whose path is also a directory of another
// file — a malformed tree with duplicate names (a link and a directory
// both called "x") — keeping the directory's files, so nothing is ever
// written through a link of the repository.
func (s *selection) dropConflicts() {
	dirs := map[string]bool{}
	for p := range s.files {
		for d := parentDir(p); d != "" && !dirs[d]; d = parentDir(d) {
			dirs[d] = true
		}
	}
	for p := range s.files {
		if dirs[p] {
			delete(s.files, p)
			s.skipped = append(s.skipped, SkippedPath{Path: p, Reason: reasonSameName})
		}
	}
}

// selectFiles lists the files of root that sp chooses (all of them for a
// nil sp). Submodules are left out: their content is another repository.
func selectFiles(t *trees, root plumbing.Hash, sp *Sparse) (selection, error) {
	sel := selection{files: map[string]treeEntry{}}
	tree, err := t.get(root)
	if err != nil {
		return sel, err
	}
	whole := sp == nil
	var wanted []string
	if sp != nil {
		for _, p := range sp.Paths {
			clean := path.Clean(strings.Trim(p, "/"))
			if clean == "." || clean == "" {
				whole = true
				continue
			}
			wanted = append(wanted, clean)
		}
	}
	for _, e := range tree.Entries {
		if why := unsafeName(e.Name); why != "" {
			sel.skip(e.Name, e.Mode, why)
			continue
		}
		if sp != nil && matchGlob(sp.Exclude, e.Name) {
			continue
		}
		var sub []string
		all := whole || (sp != nil && matchGlob(sp.Include, e.Name))
		for _, w := range wanted {
			first, rest, _ := strings.Cut(w, "/")
			if first != e.Name {
				continue
			}
			if rest == "" {
				all = true
			}
			sub = append(sub, rest)
		}
		switch {
		case all:
			err = sel.addAll(t, e, e.Name)
		case len(sub) > 0 && e.Mode == filemode.Dir:
			err = sel.addPaths(t, e.Hash, e.Name, sub)
		}
		if err != nil {
			return sel, err
		}
	}
	return sel, nil
}

// addPaths adds the entries of the tree at prefix that lie on or under the
// relative paths wanted.
func (s *selection) addPaths(t *trees, h plumbing.Hash, prefix string, wanted []string) error {
	tree, err := t.get(h)
	if err != nil {
		return err
	}
	for _, w := range wanted {
		first, rest, _ := strings.Cut(w, "/")
		e, ok := entryNamed(tree, first)
		if !ok {
			continue // a missing documentation root is the collector's to report
		}
		p := prefix + "/" + first
		if why := unsafeName(first); why != "" {
			s.skip(p, e.Mode, why)
			continue
		}
		switch {
		case rest == "":
			err = s.addAll(t, e, p)
		case e.Mode == filemode.Dir:
			err = s.addPaths(t, e.Hash, p, []string{rest})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// addAll adds e and, for a directory, everything below it. Of two
// entries with the same path (a malformed tree) the first is kept and the
// second reported.
func (s *selection) addAll(t *trees, e object.TreeEntry, p string) error {
	switch e.Mode {
	case filemode.Dir:
		if depth := strings.Count(p, "/") + 1; depth > maxTreeDepth {
			s.skip(p, e.Mode, fmt.Sprintf("the directory is nested deeper than %d levels", maxTreeDepth))
			return nil
		}
		tree, err := t.get(e.Hash)
		if err != nil {
			return err
		}
		for _, c := range tree.Entries {
			if why := unsafeName(c.Name); why != "" {
				s.skip(p+"/"+c.Name, c.Mode, why)
				continue
			}
			if err := s.addAll(t, c, p+"/"+c.Name); err != nil {
				return err
			}
		}
	case filemode.Submodule:
	default:
		if _, dup := s.files[p]; dup {
			s.skipped = append(s.skipped, SkippedPath{Path: p, Reason: reasonSameName})
			return nil
		}
		s.files[p] = treeEntry{path: p, mode: e.Mode, hash: e.Hash}
	}
	return nil
}

// entryNamed finds a direct entry of tree by name.
func entryNamed(tree *object.Tree, name string) (object.TreeEntry, bool) {
	for _, e := range tree.Entries {
		if e.Name == name {
			return e, true
		}
	}
	return object.TreeEntry{}, false
}

// matchGlob reports whether name matches any of the globs.
func matchGlob(globs []string, name string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
