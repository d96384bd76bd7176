package gitx

import (
	"errors"
	"fmt"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// unlimitedDepth is the depth Git itself sends for --unshallow.
const unlimitedDepth = 0x7fffffff

// update moves an existing workspace to the remote reference: fetch it (with
// the request's depth when shallow; for a partial acquisition commits and
// trees only), refuse or accept divergence, then point the branch and HEAD
// at the fetched commit and bring the checkout to it. Tracked files that
// changed are rewritten and tracked files that left are removed; untracked
// files stay unless CleanUntracked.
func (op *operation) update(ws workspace) (Result, *Error) {
	repo := ws.repo
	before, err := repo.Head()
	if err != nil {
		return Result{}, op.corrupt("resolve HEAD", err)
	}
	if gerr := op.fetchTip(repo, op.haves(repo, before.Hash()), op.req.Depth, false); gerr != nil {
		return Result{}, gerr
	}
	target, gerr := op.setTracking(repo)
	if gerr != nil {
		return Result{}, gerr
	}

	if op.ref.name.IsBranch() && !op.req.HardResetOnDiverge {
		if local, err := repo.Reference(op.ref.name, true); err == nil && local.Hash() != target {
			diverged, gerr := op.diverged(repo, local.Hash(), target)
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

	if err := op.pointHead(repo, target); err != nil {
		return Result{}, op.corrupt("reset to "+short(target), err)
	}
	stats, gerr := op.populate(repo, target, false)
	if gerr != nil {
		return Result{}, gerr
	}
	if op.req.CleanUntracked {
		idx, err := repo.Storer.Index()
		if err != nil {
			return Result{}, op.corrupt("read index", err)
		}
		tracked := make(map[string]bool, len(idx.Entries))
		for _, e := range idx.Entries {
			tracked[e.Name] = true
		}
		if err := cleanUntracked(op.req.Dir, tracked); err != nil {
			return Result{}, op.corrupt("remove untracked files", err)
		}
	}
	op.log.Debug().Str("from", short(before.Hash())).Str("to", short(target)).Msg("workspace updated")
	res := op.result(repo, target, stats)
	res.Updated = before.Hash() != target
	return res, nil
}

// result describes a successful acquisition of target.
func (op *operation) result(repo *git.Repository, target plumbing.Hash, stats checkoutStats) Result {
	res := Result{
		Commit: target.String(), Branch: op.ref.short(), Ref: op.ref.name.String(),
		Partial: op.partial, Files: stats.Files, Written: stats.Written,
		Requests: op.sess.requests, Skipped: stats.Skipped, Referenced: stats.Referenced,
	}
	// The commit is in the workspace (it was just checked out); its time
	// is only shown to readers, so a commit that cannot be read leaves it
	// zero rather than failing the acquisition.
	if c, err := repo.CommitObject(target); err == nil {
		res.CommitTime = c.Committer.When.UTC()
	}
	return res
}

// haves are the commits the workspace holds that the remote may know:
// HEAD and the remote-tracking reference.
func (op *operation) haves(repo *git.Repository, head plumbing.Hash) []plumbing.Hash {
	haves := []plumbing.Hash{head}
	if ref, err := repo.Reference(op.trackingRef(), true); err == nil && ref.Hash() != head {
		if repo.Storer.HasEncodedObject(ref.Hash()) == nil {
			haves = append(haves, ref.Hash())
		}
	}
	return haves
}

// trackingRef is where the fetched reference is stored: the remote-tracking
// branch for branches, the tag itself for tags.
func (op *operation) trackingRef() plumbing.ReferenceName {
	if op.ref.name.IsBranch() {
		return plumbing.NewRemoteReferenceName(git.DefaultRemoteName, op.ref.short())
	}
	return op.ref.name
}

// setTracking points the tracking reference at the fetched tip and returns
// the commit it names.
func (op *operation) setTracking(repo *git.Repository) (plumbing.Hash, *Error) {
	tracking := op.trackingRef()
	if err := repo.Storer.SetReference(plumbing.NewHashReference(tracking, op.ref.tip)); err != nil {
		return plumbing.ZeroHash, op.corrupt("update "+tracking.String(), err)
	}
	target, err := op.fetchedCommit(repo, tracking)
	if err != nil {
		return plumbing.ZeroHash, op.corrupt("read fetched "+op.ref.short(), err)
	}
	return target, nil
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
func (op *operation) diverged(repo *git.Repository, local, target plumbing.Hash) (bool, *Error) {
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
		if gerr := op.fetchTip(repo, []plumbing.Hash{local}, depth, true); gerr != nil {
			return false, gerr
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

// pointHead points HEAD at the wanted branch, set to target, or — for a
// tag — detaches it at target.
func (op *operation) pointHead(repo *git.Repository, target plumbing.Hash) error {
	if op.ref.name.IsBranch() {
		if err := repo.Storer.SetReference(plumbing.NewHashReference(op.ref.name, target)); err != nil {
			return err
		}
		return repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, op.ref.name))
	}
	return repo.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, target))
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
