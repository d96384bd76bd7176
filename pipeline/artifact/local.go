package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/docweave/docweave/internal/pathsafe"
)

// Local is a Store in a directory on one machine: trees live under
// <root>/trees/<hash>/ as ordinary files, so materializing is a copy (or a
// hard link where the file system allows it).
type Local struct {
	root string
}

// NewLocal opens (creating when needed) a local store rooted at dir.
func NewLocal(dir string) (*Local, error) {
	for _, sub := range []string{"trees", "tmp"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("artifact store %s: %w", dir, err)
		}
	}
	return &Local{root: dir}, nil
}

// SafeRel reports whether rel is a relative slash path that stays inside its
// tree and whose every name may be written (no .git in any spelling, no
// control characters: see pathsafe); trees come from untrusted repositories.
func SafeRel(rel string) bool {
	if rel == "" || pathsafe.Rel(rel) != "" {
		return false
	}
	clean := path.Clean(rel)
	return clean == rel && clean != "." && clean != ".." && !strings.HasPrefix(clean, "../")
}

var _ Store = (*Local)(nil)

// PutTree implements Store: files are copied into a temporary directory while
// being hashed, then the directory is renamed to its content hash. Putting
// the same content twice keeps the first copy.
func (l *Local) PutTree(ctx context.Context, files []File) (Ref, error) {
	tmp, err := os.MkdirTemp(filepath.Join(l.root, "tmp"), "put-")
	if err != nil {
		return "", fmt.Errorf("put tree: %w", err)
	}
	defer os.RemoveAll(tmp)
	entries := make([]Entry, 0, len(files))
	seen := make(map[string]bool, len(files))
	dirs := map[string]bool{}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if !SafeRel(f.Rel) {
			return "", fmt.Errorf("put tree: unsafe path %q", f.Rel)
		}
		if seen[f.Rel] {
			return "", fmt.Errorf("put tree: path %q given twice", f.Rel)
		}
		seen[f.Rel] = true
		dst := filepath.Join(tmp, filepath.FromSlash(f.Rel))
		if dir := filepath.Dir(dst); !dirs[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return "", fmt.Errorf("put tree: %s: %w", f.Rel, err)
			}
			dirs[dir] = true
		}
		sum, err := keepFile(f, dst)
		if err != nil {
			return "", fmt.Errorf("put tree: %s: %w", f.Rel, err)
		}
		entries = append(entries, Entry{Rel: f.Rel, Hash: sum})
	}
	ref := TreeRef(entries)
	hexRef, _ := ref.Hex()
	final := filepath.Join(l.root, "trees", hexRef)
	if _, err := os.Stat(final); err == nil {
		used(final)
		return ref, nil
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, statErr := os.Stat(final); statErr == nil {
			used(final)
			return ref, nil // a concurrent put of the same content won
		}
		return "", fmt.Errorf("put tree %s: %w", ref, err)
	}
	return ref, nil
}

// Materialize implements Store.
func (l *Local) Materialize(ctx context.Context, ref Ref, dir string) error {
	hexRef, err := ref.Hex()
	if err != nil {
		return err
	}
	src := filepath.Join(l.root, "trees", hexRef)
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("materialize %s: %w in the local store %s (build.artifact_store: local): if the stage that made it ran in a process without this disk, every process of the site needs build.artifact_store: broker (or auto, the default, with a shared broker)", ref, ErrNotFound, l.root)
	}
	used(src)
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if err := os.Link(p, dst); err == nil {
			return nil
		}
		_, err = copyHashing(p, dst)
		return err
	})
}

// Has implements Store.
func (l *Local) Has(_ context.Context, ref Ref) (bool, error) {
	hexRef, err := ref.Hex()
	if err != nil {
		return false, err
	}
	p := filepath.Join(l.root, "trees", hexRef)
	_, err = os.Stat(p)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err == nil {
		used(p)
	}
	return err == nil, err
}

// used marks a tree or record as used now. Pruning keeps what a build in
// flight uses: whatever it reuses (a tree stored by an earlier build, a
// unit's output found by its address) is marked when it looks it up, so
// its age says when it was last used, not when it was stored.
func used(p string) {
	now := time.Now()
	_ = os.Chtimes(p, now, now)
}

// keepFile puts one file of a tree at dst, whose directory exists: an
// owned file as a hard link where the disk allows, else as a copy. It
// returns the hex sha256 of the content.
func keepFile(f File, dst string) (string, error) {
	if f.Owned {
		if err := os.Link(f.Source, dst); err == nil {
			return HashFile(dst)
		}
	}
	return copyHashing(f.Source, dst)
}

// copyHashing copies src to dst (creating parents) and returns the hex
// sha256 of the bytes copied, reading the source once.
func copyHashing(src, dst string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(out, h), in); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
