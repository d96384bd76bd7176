package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Entry is one file of a tree with its content hash.
type Entry struct {
	Rel  string // slash-separated path inside the tree
	Hash string // hex sha256 of the content
}

// TreeRef combines entries into the tree's reference: the hash of the sorted
// "path NUL content-hash LF" lines. Both paths and contents count, so a
// renamed file changes the reference as much as an edited one.
func TreeRef(entries []Entry) Ref {
	sorted := append([]Entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Rel < sorted[j].Rel })
	h := sha256.New()
	for _, e := range sorted {
		io.WriteString(h, e.Rel)
		h.Write([]byte{0})
		io.WriteString(h, e.Hash)
		h.Write([]byte{'\n'})
	}
	return Ref("sha256:" + hex.EncodeToString(h.Sum(nil)))
}

// HashFile returns the hex sha256 of a file's content.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// HashDir computes the reference a directory would have as a tree, reading
// regular files only; it lets the render stage name the site it published.
func HashDir(dir string) (Ref, int, error) {
	return HashDirContext(context.Background(), dir)
}

// HashDirContext is HashDir that stops reading when ctx ends, for a hash
// whose answer may stop mattering while it runs (the skip decision's site
// check, once a changed repository already decided the build).
func HashDirContext(ctx context.Context, dir string) (Ref, int, error) {
	var entries []Entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		sum, err := HashFile(p)
		if err != nil {
			return err
		}
		entries = append(entries, Entry{Rel: filepath.ToSlash(rel), Hash: sum})
		return nil
	})
	if err != nil {
		return "", 0, fmt.Errorf("hash directory %s: %w", dir, err)
	}
	return TreeRef(entries), len(entries), nil
}

// ListDir lists the regular files below dir as the files of a tree, named
// by their slash paths relative to dir.
func ListDir(dir string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, File{Rel: filepath.ToSlash(rel), Source: p})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	return files, nil
}
