//go:build !unix

package dirlock

import "os"

// Supported reports whether this system has the advisory locks: without
// them no lock is ever held, and a process never learns it is alone.
const Supported = false

// Without advisory locks, processes sharing a directory are not
// serialised; one process per directory is then the rule.
func lockFile(*os.File) error   { return nil }
func unlockFile(*os.File) error { return nil }

// TryExclusive never takes the lock: a process never knows it is alone.
func TryExclusive(*os.File) (bool, error) { return false, nil }

// Shared is a no-op.
func Shared(*os.File) error { return nil }
