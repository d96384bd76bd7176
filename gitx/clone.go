package gitx

import (
	"fmt"
	"os"

	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
)

// freshClone removes the target directory and clones the resolved reference
// into it: one branch (or tag), no other tags, Depth commits deep, and —
// for a sparse request to a remote that serves partial clones — commits and
// trees first, then only the files the checkout needs. A failed clone
// leaves no directory behind, so a retry or the next build starts clean.
func (op *operation) freshClone() (Result, *Error) {
	dir := op.req.Dir
	if err := os.RemoveAll(dir); err != nil {
		return Result{}, newError(CodeFailed, false, fmt.Errorf("remove workspace %s: %w", dir, err))
	}
	res, gerr := op.cloneInto(dir)
	if gerr != nil {
		_ = os.RemoveAll(dir)
	}
	return res, gerr
}

func (op *operation) cloneInto(dir string) (Result, *Error) {
	op.log.Debug().Str("ref", op.ref.name.String()).Int("depth", op.req.Depth).Bool("partial", op.partial).Msg("cloning")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, newError(CodeFailed, false, fmt.Errorf("create workspace %s: %w", dir, err))
	}
	repo, closeRepo, err := openRepo(dir, true)
	if err != nil {
		return Result{}, newError(CodeFailed, false, fmt.Errorf("initialise workspace %s: %w", dir, err))
	}
	defer closeRepo()
	spec := gitconfig.RefSpec("+" + op.ref.name.String() + ":" + op.trackingRef().String())
	if _, err := repo.CreateRemote(&gitconfig.RemoteConfig{
		Name: git.DefaultRemoteName, URLs: []string{op.rem.url}, Fetch: []gitconfig.RefSpec{spec},
	}); err != nil {
		return Result{}, newError(CodeFailed, false, fmt.Errorf("configure remote of %s: %w", dir, err), op.rem.secrets...)
	}
	if gerr := op.fetchTip(repo, nil, op.req.Depth, false); gerr != nil {
		return Result{}, gerr
	}
	target, gerr := op.setTracking(repo)
	if gerr != nil {
		return Result{}, gerr
	}
	if err := op.pointHead(repo, target); err != nil {
		return Result{}, op.corrupt("point HEAD at "+short(target), err)
	}
	stats, gerr := op.populate(repo, target, true)
	if gerr != nil {
		return Result{}, gerr
	}
	return op.result(repo, target, stats), nil
}
