//go:build !unix

package docs

import "io/fs"

// fileID has no portable inode outside Unix; the cache key then relies on
// name, size and modification time alone.
func fileID(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
