// Package dirlock is docweave's one use of the operating system's advisory
// file locks, which serialise processes that work in one directory: two
// replicas of the assemble stage that share an output directory (the same
// configuration on one machine) must not assemble into it at once, and a
// process must not sweep a workspace another one works in. A lock held by
// a process is released when it dies.
package dirlock

import (
	"fmt"
	"os"
	"path/filepath"
)

// Lock waits until no other process holds the lock of the file at path
// (created if missing, never removed: a file removed while held would let
// a second process lock a new one), takes it, and returns the function
// that releases it.
func Lock(path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		_ = unlockFile(f)
		_ = f.Close()
	}, nil
}
