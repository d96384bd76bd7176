package gitx

import (
	"context"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Probe is what a remote says about a repository before anything is
// cloned: its branches and tags, the commit the configured ref names, and
// whether each documentation path is a folder there. `docweave validate
// --remote` prints it and `docweave build` checks it first, so a wrong
// URL, ref or path fails in a second, naming what does exist.
type Probe struct {
	Refs          []RemoteRef
	DefaultBranch string
	// Ref is the branch or tag checked (the default branch when the
	// configuration names none) and Commit the commit it names.
	Ref, Commit string
	Paths       []PathCheck
}

// PathCheck says whether one documentation path is a folder at the ref.
type PathCheck struct {
	Path  string
	Found bool
	// NotFolder: the path names a file, not a folder.
	NotFolder bool
	// Parent is the deepest folder on the way to a path not found ("."
	// for the repository's top) and Folders the folders it holds, so the
	// message can say which do exist.
	Parent  string
	Folders []string
}

// ProbePaths lists the remote's references, resolves req.Branch and checks
// each of paths at its commit. It fetches one commit and its trees (filter
// blob:none where the remote allows it; otherwise one commit without
// history, stored in a temporary folder removed before it returns), never
// the history. Errors are *Error values classified like Acquire's.
func ProbePaths(ctx context.Context, req Request, paths []string) (*Probe, error) {
	rem, err := newRemote(req.URL, req.Auth, req.hostKeys())
	if err != nil {
		return nil, configError(err, req)
	}
	sess, gerr := openSession(ctx, ctx, rem)
	if gerr != nil {
		return nil, gerr
	}
	defer sess.close()
	l, err := sess.listing()
	if err != nil {
		return nil, newError(CodeFailed, false, fmt.Errorf("list references of %s: %w", RedactURL(rem.url), err), rem.secrets...)
	}
	p := &Probe{Refs: refsOf(l)}
	if def, derr := defaultBranch(l.byName); derr == nil {
		p.DefaultBranch = def.Short()
	}
	ref, gerr := pickRef(l, rem, req.Branch)
	if gerr != nil {
		return p, gerr
	}
	p.Ref, p.Commit = ref.short(), ref.commit.String()
	tmp, err := os.MkdirTemp("", "docweave-probe-")
	if err != nil {
		return p, newError(CodeFailed, false, fmt.Errorf("probe %s: %w", RedactURL(rem.url), err))
	}
	defer os.RemoveAll(tmp)
	st := filesystem.NewStorage(osfs.New(tmp), cache.NewObjectLRUDefault())
	filter := sess.adv.Capabilities.Supports(capability.Filter)
	if _, gerr := sess.fetchPack(ctx, ctx, st, packRequest{wants: []plumbing.Hash{ref.tip}, depth: 1, filterBlobs: filter},
		"fetch the tree of "+ref.short()+" from "+RedactURL(rem.url)); gerr != nil {
		return p, gerr
	}
	commit, err := object.GetCommit(st, ref.commit)
	if err != nil {
		return p, newError(CodeFailed, false, fmt.Errorf("read %s of %s: %w", ref.short(), RedactURL(rem.url), err), rem.secrets...)
	}
	t := newTrees(st)
	for _, want := range paths {
		check, err := checkPath(t, commit.TreeHash, want)
		if err != nil {
			return p, newError(CodeFailed, false, fmt.Errorf("read the tree of %s of %s: %w", ref.short(), RedactURL(rem.url), err), rem.secrets...)
		}
		p.Paths = append(p.Paths, check)
	}
	return p, nil
}

// checkPath walks want down from the root tree.
func checkPath(t *trees, root plumbing.Hash, want string) (PathCheck, error) {
	check := PathCheck{Path: want, Parent: "."}
	clean := path.Clean(strings.Trim(want, "/"))
	if clean == "." {
		check.Found = true
		return check, nil
	}
	h := root
	parts := strings.Split(clean, "/")
	for i, name := range parts {
		tree, err := t.get(h)
		if err != nil {
			return check, err
		}
		e, ok := entryNamed(tree, name)
		if !ok || e.Mode != filemode.Dir {
			check.NotFolder = ok
			check.Folders = foldersOf(tree)
			if i > 0 {
				check.Parent = strings.Join(parts[:i], "/")
			}
			return check, nil
		}
		h = e.Hash
	}
	check.Found = true
	return check, nil
}

// foldersOf lists the folders of a tree, sorted.
func foldersOf(tree *object.Tree) []string {
	var out []string
	for _, e := range tree.Entries {
		if e.Mode == filemode.Dir {
			out = append(out, e.Name)
		}
	}
	sort.Strings(out)
	return out
}
