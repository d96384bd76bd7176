package gitx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
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
// the history; a file:// repository is read in place. Errors are *Error values classified like Acquire's.
func ProbePaths(ctx context.Context, req Request, paths []string) (*Probe, error) {
	rem, err := newRemote(req.URL, req.Auth, req.hostKeys())
	if err != nil {
		return nil, configError(err, req)
	}
	if ep, err := transport.NewEndpoint(rem.url); err == nil && ep.Protocol == "file" {
		return probeLocal(rem, ep.Path, req.Branch, paths)
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
	return p, checkPaths(p, st, rem, ref, paths)
}

// probeLocal is ProbePaths for a repository on this machine (file://):
// its references and trees are read where they are. Asking git
// upload-pack instead sends the commit's every file, as local
// repositories rarely allow blob filters (10 s for argo-cd's, 0.2 s read
// in place).
func probeLocal(rem *remote, dir, branch string, paths []string) (*Probe, error) {
	repo, err := git.PlainOpen(dir)
	if err != nil {
		code := CodeFailed
		if errors.Is(err, git.ErrRepositoryNotExists) {
			code = CodeNotFound
		}
		return nil, newError(code, false, fmt.Errorf("open %s: %w", RedactURL(rem.url), err), rem.secrets...)
	}
	iter, err := repo.References()
	if err != nil {
		return nil, newError(CodeFailed, false, fmt.Errorf("list references of %s: %w", RedactURL(rem.url), err), rem.secrets...)
	}
	var refs []*plumbing.Reference
	_ = iter.ForEach(func(r *plumbing.Reference) error {
		refs = append(refs, r)
		if r.Name().IsTag() && r.Type() == plumbing.HashReference {
			if tag, err := repo.TagObject(r.Hash()); err == nil {
				refs = append(refs, plumbing.NewReferenceFromStrings(r.Name().String()+"^{}", tag.Target.String()))
			}
		}
		return nil
	})
	l := listingOf(refs)
	p := &Probe{Refs: refsOf(l)}
	if def, derr := defaultBranch(l.byName); derr == nil {
		p.DefaultBranch = def.Short()
	}
	ref, gerr := pickRef(l, rem, branch)
	if gerr != nil {
		return p, gerr
	}
	p.Ref, p.Commit = ref.short(), ref.commit.String()
	return p, checkPaths(p, repo.Storer, rem, ref, paths)
}

// checkPaths reads the commit ref names from st and checks each path.
func checkPaths(p *Probe, st storer.EncodedObjectStorer, rem *remote, ref remoteRef, paths []string) error {
	commit, err := object.GetCommit(st, ref.commit)
	if err != nil {
		return newError(CodeFailed, false, fmt.Errorf("read %s of %s: %w", ref.short(), RedactURL(rem.url), err), rem.secrets...)
	}
	t := newTrees(st)
	for _, want := range paths {
		check, err := checkPath(t, commit.TreeHash, want)
		if err != nil {
			return newError(CodeFailed, false, fmt.Errorf("read the tree of %s of %s: %w", ref.short(), RedactURL(rem.url), err), rem.secrets...)
		}
		p.Paths = append(p.Paths, check)
	}
	return nil
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
