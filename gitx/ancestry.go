package gitx

import (
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// reachable reports whether target is start or one of its ancestors, walking
// only commits present in the local object store. complete is false when
// the walk met a parent that is not stored locally — the edge of a shallow
// clone — so "not found" is then no proof that target is not an ancestor.
func reachable(s storer.EncodedObjectStorer, start, target plumbing.Hash) (found, complete bool, err error) {
	if start == target {
		return true, true, nil
	}
	complete = true
	seen := map[plumbing.Hash]bool{start: true}
	queue := []plumbing.Hash{start}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		c, err := object.GetCommit(s, h)
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			complete = false
			continue
		}
		if err != nil {
			return false, false, err
		}
		for _, p := range c.ParentHashes {
			if p == target {
				return true, true, nil
			}
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, complete, nil
}

// pruneShallow drops entries of the shallow list whose parents are all
// stored locally. go-git appends new shallow boundaries when a fetch deepens
// history but never removes the old ones, which would make the git command
// line treat those commits as roots.
func pruneShallow(s interface {
	storer.EncodedObjectStorer
	Shallow() ([]plumbing.Hash, error)
	SetShallow([]plumbing.Hash) error
}) error {
	shallow, err := s.Shallow()
	if err != nil || len(shallow) == 0 {
		return err
	}
	keep := make([]plumbing.Hash, 0, len(shallow))
	seen := map[plumbing.Hash]bool{}
	for _, h := range shallow {
		if seen[h] {
			continue
		}
		seen[h] = true
		c, err := object.GetCommit(s, h)
		if err != nil {
			keep = append(keep, h)
			continue
		}
		for _, p := range c.ParentHashes {
			if _, err := s.EncodedObject(plumbing.CommitObject, p); err != nil {
				keep = append(keep, h)
				break
			}
		}
	}
	if len(keep) == len(shallow) {
		return nil
	}
	return s.SetShallow(keep)
}
