package gitx

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxLinkHops bounds how many symbolic links one path may pass through,
// as the kernel does (SYMLOOP_MAX), so a loop in a repository ends.
const maxLinkHops = 40

// linkResolver follows the symbolic links of a sparse selection through
// the repository's trees, so the checkout also holds what they point at
// inside the repository — the links they pass through and the file they
// end at — exactly as a full checkout would. The collector then copies
// such a file as it always did; links that leave the repository or point
// at directories stay unresolved and the collector reports them.
type linkResolver struct {
	t       *trees
	root    plumbing.Hash
	exclude []string
	// read returns a link's target, or present=false when its blob is not
	// stored yet.
	read func(plumbing.Hash) (target string, present bool, err error)
	// done holds the links already followed to their end.
	done map[string]bool
	dirs map[string]plumbing.Hash // directory path → tree, "" the root
}

func newLinkResolver(t *trees, root plumbing.Hash, sp *Sparse, read func(plumbing.Hash) (string, bool, error)) *linkResolver {
	r := &linkResolver{t: t, root: root, read: read, done: map[string]bool{}, dirs: map[string]plumbing.Hash{"": root}}
	if sp != nil {
		r.exclude = sp.Exclude
	}
	return r
}

// extend adds to sel what its links need and returns the blobs of links it
// could not follow yet because their targets are not stored; fetch them
// and call extend again.
func (r *linkResolver) extend(sel *selection) ([]plumbing.Hash, error) {
	var missing []plumbing.Hash
	for {
		added := false
		for _, e := range sel.sorted() {
			if e.mode != filemode.Symlink || r.done[e.path] {
				continue
			}
			need, more, err := r.follow(e)
			if err != nil {
				return nil, err
			}
			if len(more) > 0 {
				missing = append(missing, more...)
				continue
			}
			r.done[e.path] = true
			for _, n := range need {
				if _, ok := sel.files[n.path]; !ok {
					sel.files[n.path] = n
					added = true
				}
			}
		}
		if !added {
			return dedupe(missing), nil
		}
	}
}

// follow resolves one link. It returns the entries the resolution passed
// through and ended at, or the blobs it must read first.
func (r *linkResolver) follow(link treeEntry) (need []treeEntry, missing []plumbing.Hash, err error) {
	target, present, err := r.read(link.hash)
	if err != nil || !present {
		return nil, []plumbing.Hash{link.hash}, err
	}
	if strings.HasPrefix(target, "/") {
		return nil, nil, nil // absolute: outside the repository
	}
	dir := splitPath(parentDir(link.path))
	queue := splitPath(target)
	for hops := 0; len(queue) > 0; {
		comp := queue[0]
		queue = queue[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			if len(dir) == 0 {
				return need, nil, nil // escapes the repository
			}
			dir = dir[:len(dir)-1]
			continue
		}
		if len(dir) == 0 && matchGlob(r.exclude, comp) {
			return need, nil, nil
		}
		tree, ok, err := r.dirTree(dir)
		if err != nil || !ok {
			return need, nil, err
		}
		e, ok := entryNamed(tree, comp)
		if !ok || unsafeName(comp) != "" {
			return need, nil, nil // broken link
		}
		p := strings.Join(append(append([]string(nil), dir...), comp), "/")
		switch e.Mode {
		case filemode.Dir:
			dir = append(dir, comp)
		case filemode.Symlink:
			hops++
			if hops > maxLinkHops {
				return need, nil, nil
			}
			next, present, err := r.read(e.Hash)
			if err != nil || !present {
				return nil, []plumbing.Hash{e.Hash}, err
			}
			need = append(need, treeEntry{path: p, mode: e.Mode, hash: e.Hash})
			if strings.HasPrefix(next, "/") {
				return need, nil, nil
			}
			queue = append(splitPath(next), queue...)
		case filemode.Submodule:
			return need, nil, nil
		default:
			if len(queue) > 0 {
				return need, nil, nil // a file used as a directory
			}
			need = append(need, treeEntry{path: p, mode: e.Mode, hash: e.Hash})
		}
	}
	return need, nil, nil
}

// dirTree finds the tree of a directory path, false when there is none.
func (r *linkResolver) dirTree(dir []string) (*object.Tree, bool, error) {
	key := strings.Join(dir, "/")
	if h, ok := r.dirs[key]; ok {
		t, err := r.t.get(h)
		return t, err == nil, err
	}
	parent, ok, err := r.dirTree(dir[:len(dir)-1])
	if err != nil || !ok {
		return nil, false, err
	}
	e, ok := entryNamed(parent, dir[len(dir)-1])
	if !ok || e.Mode != filemode.Dir {
		return nil, false, nil
	}
	r.dirs[key] = e.Hash
	t, err := r.t.get(e.Hash)
	return t, err == nil, err
}

func splitPath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func dedupe(hs []plumbing.Hash) []plumbing.Hash {
	seen := map[plumbing.Hash]bool{}
	out := hs[:0]
	for _, h := range hs {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}
