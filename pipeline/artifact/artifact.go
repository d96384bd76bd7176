// Package artifact stores documentation trees and rendered sites by content
// hash, so pipeline messages can name them without naming a disk path. The
// local implementation serves a single node; a JetStream object-store
// implementation serves stages spread over machines (scale-out).
package artifact

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Ref names an artifact by content: "sha256:<hex>". Equal content gives an
// equal reference, wherever and whenever it was stored.
type Ref string

// ErrNotFound is returned when a reference is not in the store.
var ErrNotFound = errors.New("artifact not found")

// File is one file to put into a tree: Rel is its slash-separated path
// inside the tree, Source the file on local disk to read it from.
type File struct {
	Rel    string
	Source string
	// Owned says the caller hands the file over: it will neither change
	// nor reuse it, so a store on the same disk may keep the file itself
	// (a hard link) instead of a copy.
	Owned bool
}

// Store keeps immutable trees of files addressed by their content.
type Store interface {
	// PutTree stores the files as one tree and returns its reference.
	PutTree(ctx context.Context, files []File) (Ref, error)
	// Materialize writes the tree's files below dir (which may exist).
	Materialize(ctx context.Context, ref Ref, dir string) error
	// Has reports whether the tree is stored.
	Has(ctx context.Context, ref Ref) (bool, error)
	// PutRecord keeps a small value under a name, replacing any earlier
	// one: for what is looked up by something other than its content (a
	// unit's content address names the record of its rendered output).
	// Names are SafeName.
	PutRecord(ctx context.Context, name string, value []byte) error
	// Record returns the value kept under name, or an error wrapping
	// ErrNotFound.
	Record(ctx context.Context, name string) ([]byte, error)
}

// SafeName reports whether name can name a record: 1 to 128 of a-z, 0-9,
// "-", "_" and ".", not starting with ".".
func SafeName(name string) bool {
	if name == "" || len(name) > 128 || name[0] == '.' {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// Hex returns the hash part of a reference, for use in file names.
func (r Ref) Hex() (string, error) {
	h, ok := strings.CutPrefix(string(r), "sha256:")
	if !ok || len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		return "", fmt.Errorf("artifact reference %q is not sha256:<64 hex digits>", string(r))
	}
	return h, nil
}

// Both stores satisfy Store (checked when compiling, so a change to the
// interface names the store that falls behind).
var (
	_ Store = (*Local)(nil)
	_ Store = (*Objects)(nil)
)
