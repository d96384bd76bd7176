//go:build !unix

package ingress

import "os"

// inodeOf returns 0 where inode numbers are not available; size and
// modification time still detect changes there.
func inodeOf(os.FileInfo) uint64 { return 0 }
