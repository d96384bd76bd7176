//go:build !linux

package gitx

import (
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// fillStat has no inode data to record on this system.
func fillStat(*index.Entry, fs.FileInfo) {}
