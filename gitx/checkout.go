package gitx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// checkoutStats says what writing a checkout did.
type checkoutStats struct {
	Files   int // files (and links) in the checkout
	Written int // of which written now; the others were already current
	Removed int // tracked files no longer in the checkout
	// Skipped are the entries left out of the checkout, sorted by path:
	// unsafe names and duplicates of the selection, and entries the
	// writer could not place (see materialize).
	Skipped []SkippedPath
	// Referenced are the files of Request.Referenced in the checkout.
	Referenced []string
	// StoodIn are the files over the file limit, written as untracked
	// stand-ins of their size (see oversize.go).
	StoodIn []string
}

// materialize makes the working directory dir hold exactly files: files
// that the previous index tracked and that are no longer wanted are
// removed, changed or missing ones are written from their blobs, current
// ones are left alone, and untracked files are never touched. It returns
// the index describing the new checkout, which lists only what was
// written.
//
// It replaces go-git's Worktree.Reset, which looks every file up from the
// root tree (decoding a directory's tree once per file in it) and so costs
// n² in the number of files of a folder. Nothing here follows a symbolic
// link: a directory on the way to a file is created as a directory, and
// regular files are all written before the first link, so a repository
// cannot make the checkout write outside dir. On a fresh checkout (an
// empty dir) nothing is ever replaced: an entry whose path is already
// taken — by another entry of the same name, as a case-insensitive file
// system sees it — is left out and reported, as is a link no file system
// accepts. An update replaces what is in the way of a tracked file, as
// git's hard reset does. A file over maxBytes (when positive) is never
// read: it is stood in for, untracked (see oversize.go).
func materialize(dir string, st storer.EncodedObjectStorer, files []treeEntry, prev *index.Index, fresh bool, maxBytes int64) (*index.Index, checkoutStats, error) {
	w := &writer{root: dir, st: st, dirs: map[string]bool{"": true}, fresh: fresh, maxBytes: maxBytes}
	old := map[string]*index.Entry{}
	if prev != nil {
		for _, e := range prev.Entries {
			old[e.Name] = e
		}
	}
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f.path] = true
	}
	var stats checkoutStats
	for name := range old {
		if want[name] {
			continue
		}
		removed, err := w.removeTracked(name)
		if err != nil {
			return nil, stats, err
		}
		if removed {
			stats.Removed++
		}
	}
	entries := make([]*index.Entry, len(files))
	current := make([]bool, len(files))
	// Blobs are read here, one at a time (the object store is not safe for
	// concurrent use); small files are written by a few workers, as
	// creating files is what a large checkout spends its time on.
	ws := newWriters(w)
	for i, f := range files {
		if f.mode == filemode.Symlink {
			continue // links come last, once every file is written
		}
		if e, ok := old[f.path]; ok && w.current(e, f) {
			entries[i], current[i] = e, true
			continue
		}
		e, queued, err := w.place(f, func(data []byte) { ws.submit(i, f, data, entries) })
		if err != nil {
			ws.stop()
			return nil, stats, err
		}
		if queued {
			continue
		}
		if err := ws.failure(); err != nil {
			ws.stop()
			return nil, stats, err
		}
		entries[i] = e
	}
	if err := ws.stop(); err != nil {
		return nil, stats, err
	}
	for i, f := range files {
		if f.mode != filemode.Symlink {
			continue
		}
		if e, ok := old[f.path]; ok && w.current(e, f) {
			entries[i], current[i] = e, true
			continue
		}
		e, _, err := w.place(f, nil)
		if err != nil {
			return nil, stats, err
		}
		entries[i] = e
	}
	idx := &index.Index{Version: 2, Entries: make([]*index.Entry, 0, len(files))}
	for i, e := range entries {
		if e == nil {
			continue // left out, and in w.skipped
		}
		idx.Entries = append(idx.Entries, e)
		if !current[i] {
			stats.Written++
		}
	}
	stats.Files = len(idx.Entries)
	stats.Skipped = w.skipped
	stats.StoodIn = w.stoodIn
	return idx, stats, nil
}

// place writes f, a file or link the checkout lacks: its directory is
// made, then its content written — handed to queue when it is a small
// file and queue is set (queued is true then), else written here. An
// entry the writer leaves out is recorded in w.skipped, with a nil entry.
func (w *writer) place(f treeEntry, queue func([]byte)) (e *index.Entry, queued bool, err error) {
	defer func() {
		if w.leftOut(f, err) {
			e, err = nil, nil
		}
	}()
	if err := w.ensureDir(parentDir(f.path)); err != nil {
		return nil, false, err
	}
	data, small, err := w.readSmall(f)
	var over *oversized
	if errors.As(err, &over) {
		return nil, false, w.standIn(f, over.size)
	}
	if err != nil {
		return nil, false, err
	}
	switch {
	case small && queue != nil:
		queue(data)
		return nil, true, nil
	case small:
		e, err = w.writeData(f, data)
	default:
		e, err = w.write(f)
	}
	return e, false, err
}

// leftOut records f as skipped when err says the writer left it out, and
// reports whether it did.
func (w *writer) leftOut(f treeEntry, err error) bool {
	var skip *skipError
	if !errors.As(err, &skip) {
		return false
	}
	w.mu.Lock()
	w.skipped = append(w.skipped, SkippedPath{Path: f.path, Reason: skip.reason})
	w.mu.Unlock()
	return true
}

// smallBlob is the size up to which a file's content is read into memory
// and handed to a writer goroutine; larger files are streamed in place.
const smallBlob = 256 << 10

// fileWriters is the pool that writes small files in parallel.
type fileWriters struct {
	w    *writer
	jobs chan writeJob
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
}

type writeJob struct {
	i       int
	f       treeEntry
	data    []byte
	entries []*index.Entry
}

// writeWorkers is how many files are created at once.
var writeWorkers = min(max(runtime.GOMAXPROCS(0), 2), 4)

func newWriters(w *writer) *fileWriters {
	jobs := make(chan writeJob, 64)
	p := &fileWriters{w: w, jobs: jobs}
	for range writeWorkers {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range jobs {
				if p.failure() != nil {
					continue
				}
				e, err := w.writeData(j.f, j.data)
				if w.leftOut(j.f, err) {
					continue
				}
				if err != nil {
					p.mu.Lock()
					if p.err == nil {
						p.err = err
					}
					p.mu.Unlock()
					continue
				}
				j.entries[j.i] = e
			}
		}()
	}
	return p
}

func (p *fileWriters) submit(i int, f treeEntry, data []byte, entries []*index.Entry) {
	p.jobs <- writeJob{i: i, f: f, data: data, entries: entries}
}

func (p *fileWriters) failure() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// stop waits for the writes in flight and returns the first failure.
func (p *fileWriters) stop() error {
	if p.jobs != nil {
		close(p.jobs)
		p.jobs = nil
		p.wg.Wait()
	}
	return p.failure()
}

// writer writes files under root without ever following a link.
type writer struct {
	root string
	st   storer.EncodedObjectStorer
	// dirs are directories (slash paths, "" the root) known to be real
	// directories, not links.
	dirs map[string]bool
	// fresh is true for a checkout into an empty directory: whatever is
	// in an entry's way came from another entry, and is never replaced.
	fresh bool
	// maxBytes, when positive, is the largest file read (see oversize.go).
	maxBytes int64
	// mu guards skipped and stoodIn, which the writer goroutines append
	// to.
	mu      sync.Mutex
	skipped []SkippedPath
	stoodIn []string
}

func (w *writer) full(rel string) string { return filepath.Join(w.root, filepath.FromSlash(rel)) }

// current reports whether the tracked file e is on disk as the index
// recorded it and already has f's content and mode.
func (w *writer) current(e *index.Entry, f treeEntry) bool {
	if e.Hash != f.hash || e.Mode != f.mode || !w.realParents(f.path) {
		return false
	}
	fi, err := os.Lstat(w.full(f.path))
	if err != nil {
		return false
	}
	isLink := fi.Mode()&fs.ModeSymlink != 0
	if isLink != (f.mode == filemode.Symlink) || (!isLink && !fi.Mode().IsRegular()) {
		return false
	}
	return int64(e.Size) == fi.Size() && e.ModifiedAt.Equal(fi.ModTime())
}

// realParents reports whether every directory above rel exists as a real
// directory (no link on the way).
func (w *writer) realParents(rel string) bool {
	dir := parentDir(rel)
	if w.dirs[dir] {
		return true
	}
	if dir != "" && !w.realParents(dir) {
		return false
	}
	fi, err := os.Lstat(w.full(dir))
	if err != nil || !fi.IsDir() {
		return false
	}
	w.dirs[dir] = true
	return true
}

// ensureDir makes dir (a slash path under root) a real directory,
// replacing a file or link that is in the way.
func (w *writer) ensureDir(dir string) error {
	if w.dirs[dir] {
		return nil
	}
	if err := w.ensureDir(parentDir(dir)); err != nil {
		return err
	}
	full := w.full(dir)
	fi, err := os.Lstat(full)
	switch {
	case err == nil && fi.IsDir():
	case err == nil && w.fresh:
		return errCollision
	case err == nil:
		if err := os.Remove(full); err != nil {
			return fmt.Errorf("replace %s with a directory: %w", dir, err)
		}
		fallthrough
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(full, 0o755); err != nil {
			if w.fresh && errors.Is(err, fs.ErrExist) {
				return errCollision
			}
			return fmt.Errorf("create directory %s: %w", dir, err)
		}
	default:
		return fmt.Errorf("inspect %s: %w", dir, err)
	}
	w.dirs[dir] = true
	return nil
}

// readSmall reads f's blob when it is small (or a link), so another
// goroutine can write it; small is false for a larger one.
func (w *writer) readSmall(f treeEntry) (data []byte, small bool, err error) {
	obj, err := w.st.EncodedObject(plumbing.BlobObject, f.hash)
	if err != nil {
		return nil, false, fmt.Errorf("read %s (blob %s): %w", f.path, f.hash, err)
	}
	if f.mode == filemode.Symlink && obj.Size() > maxLinkTarget {
		return nil, false, &skipError{reason: fmt.Sprintf("the link target is %d bytes long; file systems take at most %d", obj.Size(), maxLinkTarget)}
	}
	if w.maxBytes > 0 && obj.Size() > w.maxBytes && f.mode != filemode.Symlink {
		return nil, false, &oversized{size: obj.Size()}
	}
	if obj.Size() > smallBlob && f.mode != filemode.Symlink {
		return nil, false, nil
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, false, fmt.Errorf("read %s (blob %s): %w", f.path, f.hash, err)
	}
	defer r.Close()
	data, err = io.ReadAll(r)
	if err != nil {
		return nil, false, fmt.Errorf("read %s (blob %s): %w", f.path, f.hash, err)
	}
	return data, true, nil
}

// clear removes whatever is at f's path, so the file is created anew and
// never written through a link.
func (w *writer) clear(f treeEntry) error {
	full := w.full(f.path)
	fi, err := os.Lstat(full)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		err = os.RemoveAll(full)
	} else {
		err = os.Remove(full)
	}
	if err != nil {
		return fmt.Errorf("replace %s: %w", f.path, err)
	}
	return nil
}

// writeData writes f with content data (a link's target for a link) and
// returns its index entry; its directory exists. The file is created
// exclusively, and only when something is in the way is that removed and
// the creation tried again — a fresh checkout pays no lookup per file,
// and replaces nothing (errCollision instead). Links are written by the
// calling goroutine only, after every file.
func (w *writer) writeData(f treeEntry, data []byte) (*index.Entry, error) {
	full := w.full(f.path)
	if f.mode == filemode.Symlink {
		if bytes.IndexByte(data, 0) >= 0 || len(data) == 0 {
			return nil, &skipError{reason: "the link target is empty or contains a NUL byte"}
		}
		err := os.Symlink(string(data), full)
		if errors.Is(err, fs.ErrExist) {
			if w.fresh || w.dirs[f.path] {
				return nil, errCollision
			}
			if err = w.clear(f); err == nil {
				err = os.Symlink(string(data), full)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("write link %s: %w", f.path, err)
		}
		return w.entry(f)
	}
	out, err := w.create(f)
	if err != nil {
		return nil, err
	}
	if _, err := out.Write(data); err != nil {
		out.Close()
		return nil, fmt.Errorf("write %s: %w", f.path, err)
	}
	return w.finish(f, out)
}

// create creates f's file exclusively, removing what is in the way first
// if needed.
func (w *writer) create(f treeEntry) (*os.File, error) {
	full := w.full(f.path)
	out, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm(f.mode))
	if errors.Is(err, fs.ErrExist) {
		if w.fresh {
			return nil, errCollision
		}
		if err = w.clear(f); err == nil {
			out, err = os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm(f.mode))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", f.path, err)
	}
	return out, nil
}

// finish closes a written file and returns its index entry, from the
// open file's own status (no second lookup by path).
func (w *writer) finish(f treeEntry, out *os.File) (*index.Entry, error) {
	fi, err := out.Stat()
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", f.path, err)
	}
	e := &index.Entry{Name: f.path, Hash: f.hash, Mode: f.mode, Size: uint32(fi.Size()), ModifiedAt: fi.ModTime()}
	fillStat(e, fi)
	return e, nil
}

// entry is the index entry of the link just written at f's path.
func (w *writer) entry(f treeEntry) (*index.Entry, error) {
	fi, err := os.Lstat(w.full(f.path))
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", f.path, err)
	}
	e := &index.Entry{Name: f.path, Hash: f.hash, Mode: f.mode, Size: uint32(fi.Size()), ModifiedAt: fi.ModTime()}
	fillStat(e, fi)
	return e, nil
}

func filePerm(m filemode.FileMode) os.FileMode {
	if m == filemode.Executable {
		return 0o755
	}
	return 0o644
}

// write streams a large file from its blob (its directory exists) and
// returns its index entry.
func (w *writer) write(f treeEntry) (*index.Entry, error) {
	obj, err := w.st.EncodedObject(plumbing.BlobObject, f.hash)
	if err != nil {
		return nil, fmt.Errorf("read %s (blob %s): %w", f.path, f.hash, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s (blob %s): %w", f.path, f.hash, err)
	}
	defer r.Close()
	out, err := w.create(f)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return nil, fmt.Errorf("write %s: %w", f.path, err)
	}
	return w.finish(f, out)
}

// removeTracked removes a file the previous checkout wrote, and the
// directories it leaves empty. A path reached through a link, or that is
// now a directory, is left alone: it is not the file that was tracked.
func (w *writer) removeTracked(rel string) (bool, error) {
	if !w.realParents(rel) {
		return false, nil
	}
	full := w.full(rel)
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("inspect %s: %w", rel, err)
	}
	if fi.IsDir() {
		return false, nil
	}
	if err := os.Remove(full); err != nil {
		return false, fmt.Errorf("remove %s: %w", rel, err)
	}
	for dir := parentDir(rel); dir != ""; dir = parentDir(dir) {
		if err := os.Remove(w.full(dir)); err != nil {
			break // not empty (or gone): stop climbing
		}
		delete(w.dirs, dir)
	}
	return true, nil
}
