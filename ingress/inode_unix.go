//go:build unix

package ingress

import (
	"os"
	"syscall"
)

// inodeOf returns the file's inode number, which changes when a file is
// replaced by a rename (as editors and ConfigMap volumes do) even if its
// size and modification time happen to match.
func inodeOf(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino) //nolint:unconvert // Ino is not uint64 on every platform
	}
	return 0
}
