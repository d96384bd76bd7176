//go:build !unix

package dirlock

import "os"

// Without advisory locks, replicas sharing a directory are not
// serialised; one process per output directory is then the rule.
func lockFile(*os.File) error   { return nil }
func unlockFile(*os.File) error { return nil }
