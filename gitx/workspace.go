package gitx

import (
	"errors"
	"fmt"
	"os"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// workspace is what inspectWorkspace found in a target directory.
type workspace struct {
	absent  bool            // missing or empty: nothing to update or lose
	repo    *git.Repository // set when the workspace is usable
	problem error           // why an existing directory is not a usable workspace
	close   func()          // releases repo's open pack files
}

// release closes the repository's pack files, if it was opened.
func (w workspace) release() {
	if w.close != nil {
		w.close()
	}
}

// openRepo opens the repository of a workspace — or, with create,
// initialises a new one — with its pack files kept open: a checkout reads
// thousands of objects, and go-git otherwise opens and closes the pack
// file for every one of them. close releases them.
func openRepo(dir string, create bool) (repo *git.Repository, closeRepo func(), err error) {
	wt := osfs.New(dir)
	dot, err := wt.Chroot(git.GitDirName)
	if err != nil {
		return nil, nil, err
	}
	if !create {
		if _, err := dot.Stat(""); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, nil, git.ErrRepositoryNotExists
			}
			return nil, nil, err
		}
	}
	st := filesystem.NewStorageWithOptions(dot, cache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	if create {
		repo, err = git.Init(st, wt)
	} else {
		repo, err = git.Open(st, wt)
	}
	if err != nil {
		_ = st.Close()
		return nil, nil, err
	}
	return repo, func() { _ = st.Close() }, nil
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
	repo, closeRepo, err := openRepo(dir, false)
	if err != nil {
		return workspace{problem: fmt.Errorf("open repository: %w", err)}
	}
	ws := inspectRepo(repo, url)
	if ws.problem != nil {
		closeRepo()
		return ws
	}
	ws.close = closeRepo
	return ws
}

// inspectRepo checks an opened workspace repository.
func inspectRepo(repo *git.Repository, url string) workspace {
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
