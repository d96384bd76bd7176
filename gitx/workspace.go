package gitx

import (
	"errors"
	"fmt"
	"os"

	git "github.com/go-git/go-git/v5"
)

// workspace is what inspectWorkspace found in a target directory.
type workspace struct {
	absent  bool            // missing or empty: nothing to update or lose
	repo    *git.Repository // set when the workspace is usable
	problem error           // why an existing directory is not a usable workspace
}

// inspectWorkspace decides whether dir holds a usable clone of url: a
// non-bare repository whose origin is url and whose HEAD commit, root tree
// and index can be read. Anything less is reported as a problem so the
// caller can refuse (update) or start over (auto).
func inspectWorkspace(dir, url string) workspace {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return workspace{absent: true}
	case err != nil:
		return workspace{problem: fmt.Errorf("read workspace: %w", err)}
	case len(entries) == 0:
		return workspace{absent: true}
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return workspace{problem: fmt.Errorf("open repository: %w", err)}
	}
	origin, err := repo.Remote(git.DefaultRemoteName)
	if err != nil {
		return workspace{problem: fmt.Errorf("read remote %q: %w", git.DefaultRemoteName, err)}
	}
	if urls := origin.Config().URLs; len(urls) == 0 || urls[0] != url {
		have := ""
		if len(urls) > 0 {
			have = urls[0]
		}
		return workspace{problem: fmt.Errorf("workspace is a clone of %s, not %s", RedactURL(have), RedactURL(url))}
	}
	head, err := repo.Head()
	if err != nil {
		return workspace{problem: fmt.Errorf("resolve HEAD: %w", err)}
	}
	commit, err := repo.CommitObject(head.Hash())
	if err != nil {
		return workspace{problem: fmt.Errorf("read HEAD commit %s: %w", head.Hash(), err)}
	}
	if _, err := commit.Tree(); err != nil {
		return workspace{problem: fmt.Errorf("read tree of %s: %w", head.Hash(), err)}
	}
	if _, err := repo.Storer.Index(); err != nil {
		return workspace{problem: fmt.Errorf("read index: %w", err)}
	}
	if _, err := repo.Worktree(); err != nil {
		return workspace{problem: fmt.Errorf("open worktree: %w", err)}
	}
	return workspace{repo: repo}
}
