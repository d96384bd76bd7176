//go:build !unix

package workspace

import "os"

// lockExclusive: without flock, a process never knows it is alone, so it
// never sweeps.
func lockExclusive(*os.File) (bool, error) { return false, nil }

// lockShared is a no-op without flock.
func lockShared(*os.File) error { return nil }
