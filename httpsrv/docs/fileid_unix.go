//go:build unix

package docs

import (
	"io/fs"
	"syscall"
)

// fileID returns the device and inode of a file, so a validator cached for
// one file is never reused for another that happens to share its name, size
// and modification time (as the same page of two successive builds can).
func fileID(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
