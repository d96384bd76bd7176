package assembly

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/searchindex"
)

// The search index has one book per unit (package searchindex). A book is
// made once for a unit's search records and kept in the work directory
// by the records' hash: its files, and its words with the book's page
// numbers. An assembly makes the books of the units it has not seen and
// reads the others' words back, then joins them into the word chunks and
// the manifest. A push so costs its unit's book and the join, not every
// unit's records read and split into words again.

// searchBooksDir is where the books are kept, below the work directory's
// generated files.
const searchBooksDir = "search-books"

// bookManifest is a kept book's description: the searchindex.Book
// without its files' content, which lie beside it.
const bookManifest = "book.json"

// keptBook is a book of the site's index and where its files are kept.
type keptBook struct {
	book *searchindex.Book
	dir  string
}

// searchBooks returns the books of the units with search records, in
// menu order, making those not kept yet, and removes the kept books no
// unit has any more.
func searchBooks(keep string, repos []model.Repository, units []RenderedUnit) ([]keptBook, error) {
	byPath := make(map[string]RenderedUnit, len(units))
	for _, u := range units {
		byPath[u.Path] = u
	}
	var out []keptBook
	used := map[string]bool{}
	for _, unit := range model.Units(repos) {
		u, ok := byPath[unit.Path]
		if !ok || len(u.Search) == 0 {
			continue
		}
		sum := sha256.Sum256(u.Search)
		key := fmt.Sprintf("%d-%s", searchindex.Format, hex.EncodeToString(sum[:]))
		used[key] = true
		dir := filepath.Join(keep, key)
		b, err := readBook(dir)
		if err != nil {
			if b, err = makeBook(dir, u); err != nil {
				return nil, err
			}
		}
		if b != nil {
			out = append(out, keptBook{book: b, dir: dir})
		}
	}
	entries, err := os.ReadDir(keep)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	for _, e := range entries {
		if !used[e.Name()] {
			os.RemoveAll(filepath.Join(keep, e.Name()))
		}
	}
	return out, nil
}

// readBook reads a kept book's description; its files stay on disk.
func readBook(dir string) (*searchindex.Book, error) {
	data, err := os.ReadFile(filepath.Join(dir, bookManifest))
	if err != nil {
		return nil, err
	}
	var kept struct {
		searchindex.Book
		Files []string `json:"files"`
		Empty bool     `json:"empty,omitempty"`
	}
	if err := json.Unmarshal(data, &kept); err != nil {
		return nil, err
	}
	if kept.Empty {
		return nil, nil
	}
	b := kept.Book
	b.Files = make(map[string][]byte, len(kept.Files))
	for _, name := range kept.Files {
		b.Files[name] = nil // read when placed (see placeBooks)
	}
	return &b, nil
}

// makeBook makes a unit's book and keeps it in dir (written aside and
// renamed, so a kept book is whole). It returns nil for a unit without
// entries.
func makeBook(dir string, u RenderedUnit) (*searchindex.Book, error) {
	var entries []searchindex.Entry
	if err := json.Unmarshal(u.Search, &entries); err != nil {
		return nil, fmt.Errorf("site: assemble: search entries of unit %s: %w", u.Path, err)
	}
	b, err := searchindex.NewBook(entries)
	if err != nil {
		return nil, err
	}
	kept := struct {
		*searchindex.Book
		Files []string `json:"files"`
		Empty bool     `json:"empty,omitempty"`
	}{Book: b, Empty: b == nil}
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	if b != nil {
		for name, data := range b.Files {
			kept.Files = append(kept.Files, name)
			if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
				return nil, fmt.Errorf("site: assemble: %w", err)
			}
		}
		slices.Sort(kept.Files)
	}
	data, err := json.Marshal(kept)
	if err != nil {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, bookManifest), data, 0o644); err != nil {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	return b, nil
}

// placeBooks puts the books' files and the joined files (word chunks and
// manifest) into dir where the placed list does not show them already,
// removes the placed ones the index no longer has, and returns the new
// list, sorted by path. A book's file comes from where it is kept.
func placeBooks(dir string, books []keptBook, joined map[string][]byte, placed []FileHash) ([]FileHash, error) {
	had := make(map[string]string, len(placed))
	for _, f := range placed {
		had[f.Rel] = f.Hash
	}
	files := make(map[string][]byte, len(joined))
	for rel, data := range joined {
		files[rel] = data
	}
	var out []FileHash
	kept := map[string]bool{}
	for _, b := range books {
		for name, data := range b.book.Files {
			rel := "search/" + name
			if kept[rel] {
				continue
			}
			kept[rel] = true
			hash, ok := contentNameHash(had, rel)
			if ok {
				out = append(out, FileHash{Rel: rel, Hash: hash})
				continue
			}
			if data == nil {
				var err error
				if data, err = os.ReadFile(filepath.Join(b.dir, name)); err != nil {
					return nil, fmt.Errorf("site: assemble: search book: %w", err)
				}
			}
			files[rel] = data
		}
	}
	written, err := placeSearchFiles(dir, files, placed, kept)
	if err != nil {
		return nil, err
	}
	out = append(out, written...)
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// contentNameHash is the hash the placed list gives a file named by its
// content, when it is placed: the name stands for the content.
func contentNameHash(had map[string]string, rel string) (string, bool) {
	h, ok := had[rel]
	return h, ok && rel != searchindex.ManifestFile
}
