package gitx

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// unlimitedDepth is the depth Git itself sends for --unshallow.
const unlimitedDepth = 0x7fffffff

// update moves an existing workspace to the remote reference: fetch it (with
// the request's depth when shallow), refuse or accept divergence, then hard
// reset the branch, index and tracked files to the fetched commit. Untracked
// files survive the reset (go-git's own hard reset deletes them) and are
// removed afterwards only with CleanUntracked.
func (op *operation) update(ws workspace) (Result, *Error) {
	repo := ws.repo
	before, err := repo.Head()
	if err != nil {
		return Result{}, op.corrupt("resolve HEAD", err)
	}
	tracking := op.trackingRef()
	if gerr := op.fetch(repo, tracking, op.req.Depth); gerr != nil {
		return Result{}, gerr
	}
	target, err := op.fetchedCommit(repo, tracking)
	if err != nil {
		return Result{}, op.corrupt("read fetched "+op.ref.short(), err)
	}

	if op.ref.name.IsBranch() && !op.req.HardResetOnDiverge {
		if local, err := repo.Reference(op.ref.name, true); err == nil && local.Hash() != target {
			diverged, gerr := op.diverged(repo, tracking, local.Hash(), target)
			if gerr != nil {
				return Result{}, gerr
			}
			if diverged {
				return Result{}, newError(CodeDiverged, false, fmt.Errorf(
					"workspace %s: local branch %s at %s has commits the remote branch at %s does not contain "+
						"(local commits or a force-push); set build.hard_reset_on_diverge to reset it",
					op.req.Dir, op.ref.short(), short(local.Hash()), short(target)))
			}
		}
	}

	unsafe, err := hasUnsafeNames(repo, target)
	if err != nil {
		return Result{}, op.corrupt("read tree of "+short(target), err)
	}
	if unsafe {
		// go-git refuses to reset to a tree with names it cannot write;
		// a fresh clone skips those entries one by one.
		op.log.Info().Str("commit", short(target)).Msg("the tree has names that cannot be checked out; cloning afresh to leave them out")
		res, gerr := op.freshClone()
		res.Updated = gerr == nil && before.Hash() != target
		return res, gerr
	}
	if err := op.checkout(repo, target); err != nil {
		return Result{}, op.corrupt("reset to "+short(target), err)
	}
	if op.req.CleanUntracked {
		wt, err := repo.Worktree()
		if err == nil {
			err = wt.Clean(&git.CleanOptions{Dir: true})
		}
		if err != nil {
			return Result{}, op.corrupt("remove untracked files", err)
		}
	}
	op.log.Debug().Str("from", short(before.Hash())).Str("to", short(target)).Msg("workspace updated")
	return Result{
		Commit:  target.String(),
		Branch:  op.ref.short(),
		Ref:     op.ref.name.String(),
		Updated: before.Hash() != target,
	}, nil
}

// trackingRef is where the fetched reference is stored: the remote-tracking
// branch for branches, the tag itself for tags.
func (op *operation) trackingRef() plumbing.ReferenceName {
	if op.ref.name.IsBranch() {
		return plumbing.NewRemoteReferenceName(git.DefaultRemoteName, op.ref.short())
	}
	return op.ref.name
}

// fetch fetches the wanted reference into tracking with the given depth.
func (op *operation) fetch(repo *git.Repository, tracking plumbing.ReferenceName, depth int) *Error {
	spec := gitconfig.RefSpec("+" + op.ref.name.String() + ":" + tracking.String())
	err := repo.FetchContext(op.ctx, &git.FetchOptions{
		RemoteName: git.DefaultRemoteName,
		RefSpecs:   []gitconfig.RefSpec{spec},
		Depth:      depth,
		Auth:       op.rem.auth,
		Tags:       git.NoTags,
		Force:      true,
	})
	if err == nil || errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil
	}
	gerr := classify(op.parent, "fetch "+op.ref.short()+" from "+RedactURL(op.rem.url), err, op.rem.secrets...)
	if gerr.Code == CodeFailed && localStoreFailure(err) {
		gerr.Code = CodeCorruptWorkspace
	}
	return gerr
}

// fetchedCommit reads the commit a fetched reference points at, peeling an
// annotated tag.
func (op *operation) fetchedCommit(repo *git.Repository, tracking plumbing.ReferenceName) (plumbing.Hash, error) {
	ref, err := repo.Reference(tracking, true)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	h := ref.Hash()
	if tag, err := repo.TagObject(h); err == nil {
		c, err := tag.Commit()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		h = c.Hash
	}
	if _, err := repo.CommitObject(h); err != nil {
		return plumbing.ZeroHash, err
	}
	return h, nil
}

// diverged reports whether local has commits that target lacks. A shallow
// workspace may not hold enough history to tell, so history is deepened
// step by step (depth×8, up to the full history) until local is found among
// target's ancestors or the history is complete.
func (op *operation) diverged(repo *git.Repository, tracking plumbing.ReferenceName, local, target plumbing.Hash) (bool, *Error) {
	// Local ahead of (or beside) the remote: target is in local's history.
	if found, _, err := reachable(repo.Storer, local, target); err != nil {
		return false, op.corrupt("walk local history", err)
	} else if found {
		return true, nil
	}
	depth := op.req.Depth
	for {
		found, complete, err := reachable(repo.Storer, target, local)
		if err != nil {
			return false, op.corrupt("walk fetched history", err)
		}
		if found || complete {
			return !found, nil
		}
		depth = deeper(depth)
		if depth == 0 {
			return true, nil // full history fetched and local still not in it
		}
		op.log.Debug().Int("depth", depth).Msg("deepening shallow history to check for divergence")
		if gerr := op.fetch(repo, tracking, depth); gerr != nil {
			return false, gerr
		}
		if err := pruneShallow(repo.Storer); err != nil {
			return false, op.corrupt("update shallow list", err)
		}
	}
}

// deeper is the next depth to try: ×8 up to 4096, then the whole history;
// 0 once the whole history has been asked for.
func deeper(depth int) int {
	switch {
	case depth >= unlimitedDepth:
		return 0
	case depth <= 0, depth*8 > 4096:
		return unlimitedDepth
	}
	return depth * 8
}

// checkout points HEAD at the wanted branch (or, for a tag, detaches it) and
// hard-resets index and working tree to target. The reset is limited to the
// paths tracked before or after, so untracked files are left alone.
func (op *operation) checkout(repo *git.Repository, target plumbing.Hash) error {
	paths, err := trackedPaths(repo, target)
	if err != nil {
		return err
	}
	if op.ref.name.IsBranch() {
		if err := repo.Storer.SetReference(plumbing.NewHashReference(op.ref.name, target)); err != nil {
			return err
		}
		if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, op.ref.name)); err != nil {
			return err
		}
	} else if err := repo.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, target)); err != nil {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		// Nothing tracked before or after: an empty Files list would mean
		// "every path" to go-git, untracked files included.
		return wt.Reset(&git.ResetOptions{Commit: target, Mode: git.MixedReset})
	}
	return wt.Reset(&git.ResetOptions{Commit: target, Mode: git.HardReset, Files: paths})
}

// trackedPaths is the union of the paths in the index and in target's tree.
func trackedPaths(repo *git.Repository, target plumbing.Hash) ([]string, error) {
	set := map[string]struct{}{}
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, err
	}
	for _, e := range idx.Entries {
		set[e.Name] = struct{}{}
	}
	commit, err := repo.CommitObject(target)
	if err != nil {
		return nil, err
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, err
	}
	// A tree walker reads tree objects only; tree.Files would load every
	// blob just to learn its name.
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	for {
		name, entry, err := walker.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if entry.Mode != filemode.Dir {
			set[name] = struct{}{}
		}
	}
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, nil
}

// corrupt reports a failure of the local repository.
func (op *operation) corrupt(what string, err error) *Error {
	return newError(CodeCorruptWorkspace, false, fmt.Errorf("workspace %s: %s: %w", op.req.Dir, what, err), op.rem.secrets...)
}

// localStoreFailure recognises fetch errors caused by the local object
// store rather than the remote.
func localStoreFailure(err error) bool {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"object not found", "packfile", "zlib", "malformed", "invalid checksum", "index"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func short(h plumbing.Hash) string { return h.String()[:12] }
