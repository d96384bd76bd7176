package site

import "github.com/docweave/docweave/site/internal/assembly"

// LinkTree places every file below src at the same path below dst by hard
// link (a copy where the file system cannot link). Callers that place a
// unit's output for an assembly (previews) use it, since an assembly never
// writes into a placed file but replaces it.
func LinkTree(src, dst string) error { return assembly.LinkTree(src, dst) }
