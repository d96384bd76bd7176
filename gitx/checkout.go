package gitx

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/docweave/docweave/internal/pathsafe"
)

// SkippedPath is a tree entry the checkout left out, because its name could
// not be written safely (a "..", ".git" in any case or disguise, a control
// character) or it collided with another entry. A repository is untrusted
// input: such a name skips that entry, never the whole repository.
type SkippedPath struct {
	// Path is the entry's slash-separated path in the repository, as the
	// tree spells it; Shown escapes it for a report or a log.
	Path string
	// Reason says why, for the report.
	Reason string
}

// maxTreeDepth bounds the directory nesting a checkout follows, so a
// self-referencing or absurdly deep tree cannot exhaust the stack.
const maxTreeDepth = 256

// Shown is the path with unprintable bytes escaped (Go syntax, quoted)
// when it has any, for reports and logs.
func (s SkippedPath) Shown() string { return pathsafe.Shown(s.Path) }

// treeFile is one entry the checkout writes.
type treeFile struct {
	path  string
	entry object.TreeEntry
}

// listTree walks a tree without go-git's path validation (which stops at
// the first unsafe name) and splits its entries into those that can be
// written and those that are skipped. An unsafe directory is skipped with
// everything in it, as one entry.
func listTree(repo *git.Repository, tree *object.Tree) ([]treeFile, []SkippedPath, error) {
	var files []treeFile
	var skipped []SkippedPath
	var walk func(t *object.Tree, base string, depth int) error
	walk = func(t *object.Tree, base string, depth int) error {
		if depth > maxTreeDepth {
			return fmt.Errorf("tree nesting exceeds %d directories at %s", maxTreeDepth, pathsafe.Shown(base))
		}
		for _, e := range t.Entries {
			p := e.Name
			if base != "" {
				p = base + "/" + e.Name
			}
			if why := pathsafe.Name(e.Name); why != "" {
				if e.Mode == filemode.Dir {
					why += "; the directory and everything in it left out"
				}
				skipped = append(skipped, SkippedPath{Path: p, Reason: why})
				continue
			}
			switch e.Mode {
			case filemode.Dir:
				sub, err := repo.TreeObject(e.Hash)
				if err != nil {
					return fmt.Errorf("read tree %s: %w", pathsafe.Shown(p), err)
				}
				if err := walk(sub, p, depth+1); err != nil {
					return err
				}
			case filemode.Submodule:
				// A submodule is another repository; docweave does not fetch it.
			default:
				files = append(files, treeFile{path: p, entry: e})
			}
		}
		return nil
	}
	if err := walk(tree, "", 0); err != nil {
		return nil, nil, err
	}
	return files, skipped, nil
}

// hasUnsafeNames reports whether target's tree holds a name listTree
// would skip, reading tree objects only.
func hasUnsafeNames(repo *git.Repository, target plumbing.Hash) (bool, error) {
	commit, err := repo.CommitObject(target)
	if err != nil {
		return false, err
	}
	tree, err := commit.Tree()
	if err != nil {
		return false, err
	}
	_, skipped, err := listTree(repo, tree)
	return len(skipped) > 0, err
}

// checkoutSafely writes target's tree into the empty working directory dir
// and records it in the index, skipping entries whose names are unsafe.
// Regular files are written first with O_EXCL, symbolic links last, so no
// file is ever written through a link (a malformed tree may hold a link
// and a directory of the same name); an entry that collides with one
// already written is skipped too.
func checkoutSafely(repo *git.Repository, dir string, target plumbing.Hash) ([]SkippedPath, error) {
	commit, err := repo.CommitObject(target)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", short(target), err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", short(target), err)
	}
	files, skipped, err := listTree(repo, tree)
	if err != nil {
		return nil, err
	}
	isLink := func(i int) bool { return files[i].entry.Mode == filemode.Symlink }
	sort.SliceStable(files, func(i, j int) bool { return !isLink(i) && isLink(j) })
	idx := &index.Index{Version: 2}
	for _, f := range files {
		dst := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := writeEntry(repo, dir, dst, f.entry); err != nil {
			if errors.Is(err, errCollision) {
				skipped = append(skipped, SkippedPath{Path: f.path, Reason: "another entry of the tree has the same name"})
				continue
			}
			return nil, fmt.Errorf("check out %s: %w", pathsafe.Shown(f.path), err)
		}
		info, err := os.Lstat(dst)
		if err != nil {
			return nil, err
		}
		e := idx.Add(f.path)
		e.Hash, e.Mode, e.Size = f.entry.Hash, f.entry.Mode, uint32(info.Size())
		e.ModifiedAt, e.CreatedAt = info.ModTime(), info.ModTime()
	}
	sort.Slice(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	if err := repo.Storer.SetIndex(idx); err != nil {
		return nil, fmt.Errorf("write index: %w", err)
	}
	return skipped, nil
}

// errCollision marks an entry whose path is already taken in the checkout.
var errCollision = errors.New("path already taken")

// writeEntry writes one blob as a file (or a symbolic link) at dst, below
// root. Parents are created as real directories; a parent that exists as
// anything else, or a dst that exists at all, is a collision.
func writeEntry(repo *git.Repository, root, dst string, e object.TreeEntry) error {
	if err := mkdirNoLinks(root, filepath.Dir(dst)); err != nil {
		return err
	}
	blob, err := repo.BlobObject(e.Hash)
	if err != nil {
		return err
	}
	r, err := blob.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	if e.Mode == filemode.Symlink {
		target, err := io.ReadAll(io.LimitReader(r, 4096))
		if err != nil {
			return err
		}
		if err := os.Symlink(string(target), dst); err != nil {
			if os.IsExist(err) {
				return errCollision
			}
			return err
		}
		return nil
	}
	perm := os.FileMode(0o644)
	if e.Mode == filemode.Executable {
		perm = 0o755
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		if os.IsExist(err) {
			return errCollision
		}
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// mkdirNoLinks creates dir and its parents below root, refusing (as a
// collision) any component that exists as something other than a
// directory — a symbolic link above all.
func mkdirNoLinks(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is outside the checkout", dir)
	}
	if rel == "." {
		return nil
	}
	cur := root
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		cur = filepath.Join(cur, part)
		info, err := os.Lstat(cur)
		switch {
		case err == nil && info.IsDir():
			continue
		case err == nil:
			return errCollision
		case !os.IsNotExist(err):
			return err
		}
		if err := os.Mkdir(cur, 0o755); err != nil {
			return err
		}
	}
	return nil
}
