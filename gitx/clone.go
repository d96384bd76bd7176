package gitx

import (
	"fmt"
	"os"
	"path/filepath"

	git "github.com/go-git/go-git/v5"
)

// freshClone removes the target directory and clones the resolved reference
// into it: one branch (or tag), no other tags, Depth commits deep. A failed
// clone leaves no directory behind, so a retry or the next build starts
// clean.
func (op *operation) freshClone() (Result, *Error) {
	dir := op.req.Dir
	if err := os.RemoveAll(dir); err != nil {
		return Result{}, newError(CodeFailed, false, fmt.Errorf("remove workspace %s: %w", dir, err))
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return Result{}, newError(CodeFailed, false, fmt.Errorf("create parent of workspace %s: %w", dir, err))
	}
	op.log.Debug().Str("ref", op.ref.name.String()).Int("depth", op.req.Depth).Msg("cloning")
	// go-git's own checkout fails the whole clone at the first tree name
	// it refuses (a "..", a ".GIT"); docweave checks out itself, skipping
	// such entries one by one.
	repo, err := git.PlainCloneContext(op.ctx, dir, false, &git.CloneOptions{
		URL:           op.rem.url,
		Auth:          op.rem.auth,
		ReferenceName: op.ref.name,
		SingleBranch:  true,
		Depth:         op.req.Depth,
		Tags:          git.NoTags,
		NoCheckout:    true,
	})
	if err != nil {
		_ = os.RemoveAll(dir)
		return Result{}, classify(op.parent, "clone "+RedactURL(op.rem.url)+" ("+op.ref.short()+")", err, op.rem.secrets...)
	}
	head, err := repo.Head()
	if err != nil {
		_ = os.RemoveAll(dir)
		return Result{}, newError(CodeFailed, false, fmt.Errorf("read HEAD of fresh clone %s: %w", dir, err))
	}
	skipped, err := checkoutSafely(repo, dir, head.Hash())
	if err != nil {
		_ = os.RemoveAll(dir)
		return Result{}, newError(CodeFailed, false, fmt.Errorf("check out %s: %w", short(head.Hash()), err), op.rem.secrets...)
	}
	for _, s := range skipped {
		op.log.Warn().Str("path", s.Shown()).Str("reason", s.Reason).Msg("tree entry left out of the checkout")
	}
	return Result{Commit: head.Hash().String(), Branch: op.ref.short(), Ref: op.ref.name.String(), Skipped: skipped}, nil
}
