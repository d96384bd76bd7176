package assembly

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/searchindex"
)

// PlacedSite describes what a publish directory holds, as the assembly
// that wrote it left it, so that the next assembly into the same directory
// changes only what differs: the units whose files changed, the pages that
// span units when they changed, the search index when it changed. A push
// to one repository then costs that repository, not the site. It also
// knows the content hash of every file, so the site's reference needs no
// second reading of the files.
type PlacedSite struct {
	// Units maps a unit's content path to what was placed for it.
	Units map[string]PlacedUnit `json:"units"`
	// Assembly is the key of the pages that span units placed, and
	// AssemblyFiles those pages' files.
	Assembly      string     `json:"assembly,omitempty"`
	AssemblyFiles []FileHash `json:"assembly_files,omitempty"`
	// TermFrame and Terms say what the term pages among them were
	// rendered from (see terms.go), so that the next assembly renders
	// only the term pages whose inputs changed.
	TermFrame string                `json:"term_frame,omitempty"`
	Terms     map[string]PlacedTerm `json:"terms,omitempty"`
	// SearchFiles are the search index's files as written (see
	// package searchindex); none for a site without search.
	SearchFiles []FileHash `json:"search_files,omitempty"`
	// Search is the hash of the one-file search index an earlier docweave
	// wrote (search/index.json); read only, and taken into SearchFiles.
	Search string `json:"search,omitempty"`
	// Redirects are the redirect map and the moved pages' redirect pages
	// as written (see writeRedirects).
	Redirects []FileHash `json:"redirects,omitempty"`
	// Machines are the files for crawlers and tools at the site's root:
	// sitemap.xml (and its parts), robots.txt and llms.txt (see
	// machines.go).
	Machines []FileHash `json:"machines,omitempty"`
}

// PlacedUnit is one unit's files in a publish directory.
type PlacedUnit struct {
	// ID is the unit's RenderedUnit.ID, and for a versioned unit the
	// digest of its version switchers' lists.
	ID    string     `json:"id"`
	Files []FileHash `json:"files"`
}

// FileHash is one published file: its slash path and the hex sha256 of
// its content.
type FileHash struct {
	Rel  string `json:"rel"`
	Hash string `json:"hash"`
}

// FileHashes lists every file of the site with its content hash, sorted
// by path.
func (p *PlacedSite) FileHashes() []FileHash {
	var out []FileHash
	for _, u := range p.Units {
		out = append(out, u.Files...)
	}
	out = append(out, p.AssemblyFiles...)
	out = append(out, p.Redirects...)
	out = append(out, p.SearchFiles...)
	out = append(out, p.Machines...)
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}

// preparePublishDir makes dir ready for an assembly: with a description of
// what it holds, as it is; without one, it must be empty or absent. It
// returns the description to update.
func preparePublishDir(dir, workDir string, placed *PlacedSite) (*PlacedSite, error) {
	if placed != nil {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			cp := *placed
			cp.Units = make(map[string]PlacedUnit, len(placed.Units))
			for k, v := range placed.Units {
				cp.Units[k] = v
			}
			if cp.Search != "" { // written by an earlier docweave
				cp.SearchFiles = append(slices.Clone(cp.SearchFiles), FileHash{Rel: searchindex.ManifestFile, Hash: cp.Search})
				cp.Search = ""
			}
			return &cp, nil
		}
	}
	// Without a description the directory must be empty or absent: a
	// stray file would otherwise be published.
	if err := hugobuild.ValidatePublishDir(dir, workDir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("site: assemble: %w", err)
	}
	return &PlacedSite{Units: map[string]PlacedUnit{}}, nil
}

// replaceAssembly takes the old assembly's files out of dir and places
// the new pages (hard links to the work directory's copy). The term pages
// reused (not rendered again, see terms.go) keep their files, and a page
// whose content is the one in place is left as it is.
func (p *PlacedSite) replaceAssembly(dir string, pages *assemblyPages, reused map[string]PlacedTerm) error {
	hashes, err := hashTree(pages.dir, ".")
	if err != nil {
		return err
	}
	had := make(map[string]string, len(p.AssemblyFiles))
	for _, f := range p.AssemblyFiles {
		had[f.Rel] = f.Hash
	}
	next := make(map[string]bool, len(hashes))
	for _, f := range hashes {
		next[f.Rel] = true
	}
	for _, t := range reused {
		for _, rel := range t.Files {
			if !next[rel] {
				next[rel] = true
				hashes = append(hashes, FileHash{Rel: rel, Hash: had[rel]})
			}
		}
	}
	for _, f := range p.AssemblyFiles {
		if !next[f.Rel] {
			if err := removeFile(dir, f.Rel); err != nil {
				return err
			}
		}
	}
	p.AssemblyFiles = nil
	p.Assembly = ""
	for _, f := range hashes {
		if had[f.Rel] == f.Hash {
			continue // in place already (a reused term page's, or the same page)
		}
		if err := placeFile(filepath.Join(pages.dir, filepath.FromSlash(f.Rel)), filepath.Join(dir, filepath.FromSlash(f.Rel))); err != nil {
			return fmt.Errorf("site: assemble: place %s: %w", f.Rel, err)
		}
	}
	sort.Slice(hashes, func(i, j int) bool { return hashes[i].Rel < hashes[j].Rel })
	p.AssemblyFiles, p.Assembly = hashes, pages.key
	p.TermFrame, p.Terms = pages.terms.frame, placedTerms(pages.terms, hashes)
	return nil
}

// removeUnitsNotIn removes every unit whose placed files are not the ones
// wanted (want maps a content path to its ID).
func (p *PlacedSite) removeUnitsNotIn(dir string, want map[string]string) error {
	for unit, placed := range p.Units {
		if id, ok := want[unit]; ok && id == placed.ID && id != "" {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, "docs", filepath.FromSlash(unit))); err != nil {
			return fmt.Errorf("site: assemble: remove unit %s: %w", unit, err)
		}
		removeEmptyParents(dir, path.Join("docs", unit))
		delete(p.Units, unit)
	}
	return nil
}

// writeSearchIndex writes the search index of the units (package
// searchindex): each unit's book, made once and kept in the work
// directory (searchbooks.go), and the word chunks and manifest that join
// them. It removes the files of the one in place that it no longer has.
// Its files other than the manifest are named by their content, so a
// file in place under the same name is left as it is.
func (p *PlacedSite) writeSearchIndex(dir, workDir string, repos []model.Repository, units []RenderedUnit) error {
	keep := filepath.Join(hugobuild.NewLayout(workDir, "").Generated, searchBooksDir)
	books, err := searchBooks(keep, repos, units)
	if err != nil {
		return err
	}
	made := make([]*searchindex.Book, len(books))
	for i, b := range books {
		made[i] = b.book
	}
	joined, err := searchindex.Join(made)
	if err != nil {
		return err
	}
	written, err := placeBooks(dir, books, joined, p.SearchFiles)
	if err != nil {
		return err
	}
	p.SearchFiles = written
	return nil
}

// PlaceSearchFiles writes files (content by slash path) into dir where the
// placed list does not show them already, removes the placed ones files
// lacks, and returns the new list, sorted by path.
func PlaceSearchFiles(dir string, files map[string][]byte, placed []FileHash) ([]FileHash, error) {
	return placeSearchFiles(dir, files, placed, nil)
}

// placeSearchFiles is PlaceSearchFiles, keeping also the placed files
// named in keep (in place already, and still in the index).
func placeSearchFiles(dir string, files map[string][]byte, placed []FileHash, keep map[string]bool) ([]FileHash, error) {
	had := make(map[string]string, len(placed))
	for _, f := range placed {
		had[f.Rel] = f.Hash
	}
	out := make([]FileHash, 0, len(files))
	made := map[string]bool{}
	for rel, data := range files {
		sum := sha256.Sum256(data)
		hash := hex.EncodeToString(sum[:])
		out = append(out, FileHash{Rel: rel, Hash: hash})
		if had[rel] == hash {
			continue
		}
		file := filepath.Join(dir, filepath.FromSlash(rel))
		if parent := filepath.Dir(file); !made[parent] {
			if err := os.MkdirAll(parent, 0o755); err != nil {
				return nil, fmt.Errorf("site: assemble: %w", err)
			}
			made[parent] = true
		}
		if err := writeNewFile(file, data); err != nil {
			return nil, fmt.Errorf("site: assemble: %w", err)
		}
	}
	for _, f := range placed {
		if _, ok := files[f.Rel]; !ok && !keep[f.Rel] {
			if err := removeFile(dir, f.Rel); err != nil {
				return nil, err
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// writeNewFile writes a file that is not there yet in one step (a piece
// named by its content: a new name is new content), and replaces one that
// is (the manifest), never writing into it: it may be a link.
func writeNewFile(file string, data []byte) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return replaceFile(file, data)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// removeSearchIndex removes the search index a site with search had.
func (p *PlacedSite) removeSearchIndex(dir string) error {
	for _, f := range p.SearchFiles {
		if err := removeFile(dir, f.Rel); err != nil {
			return err
		}
	}
	p.SearchFiles = nil
	return nil
}

// hashTree lists the files below dir/rel with their content hashes, paths
// relative to dir.
func hashTree(dir, rel string) ([]FileHash, error) {
	var out []FileHash
	root := filepath.Join(dir, filepath.FromSlash(rel))
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		r, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		hash, err := hashFile(p)
		if err != nil {
			return err
		}
		out = append(out, FileHash{Rel: filepath.ToSlash(r), Hash: hash})
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("site: assemble: read %s: %w", root, err)
	}
	return out, nil
}

func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// placeFile puts from at to as a hard link (a copy where the disk cannot
// link), replacing what is there.
func placeFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	_ = os.Remove(to)
	if err := os.Link(from, to); err == nil {
		return nil
	}
	return copyFile(from, to)
}

// removeFile removes one file of the site and the directories it leaves
// empty.
func removeFile(dir, rel string) error {
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("site: assemble: remove %s: %w", rel, err)
	}
	removeEmptyParents(dir, path.Dir(rel))
	return nil
}

// removeEmptyParents removes rel and the directories above it, up to dir,
// while they are empty: an empty directory in a site would be served as a
// listing.
func removeEmptyParents(dir, rel string) {
	for rel != "." && rel != "" && !strings.HasPrefix(rel, "..") {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			return // not empty, or gone
		}
		rel = path.Dir(rel)
	}
}
