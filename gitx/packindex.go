package gitx

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// A pack received from the remote is stored as it came, beside an index
// of our own making. go-git's own path (packfile.UpdateObjectStorage into
// the filesystem storage's PackWriter) inflates every object of the pack
// into memory to index it: a 200 MB file that the limits refuse anyway
// cost 190 MB of heap there, before the checkout even looked at it.
//
// storePack instead streams the pack to a temporary file in objects/pack,
// then walks that file: an object stored whole is hashed by streaming its
// inflated content into SHA-1, never held; a delta is rebuilt from its
// base read back from the file (packdelta.go), small bases in memory and
// large ones in a temporary file, so memory holds small objects and delta
// instructions only, whatever the size of a file. A REF_DELTA whose base
// is a later delta, which go-git's parser refuses, is taken as Git takes
// it. The index is go-git's (idxfile),
// the pack's checksum is verified, and the pair is renamed into place as
// pack-<checksum>.pack/.idx, where the storage finds it.

// packBufferSize is the copy buffer for receiving a pack.
const packBufferSize = 256 << 10

// baseCacheBytes bounds the delta bases and results kept between deltas
// (a chain of versions resolves each link once); an object larger than a
// quarter of it is never kept.
const baseCacheBytes = 32 << 20

// packHashSize is the length of a pack's trailing SHA-1 checksum.
const packHashSize = 20

// maxDeltaDepth bounds a delta chain, as go-git's parser does.
const maxDeltaDepth = 4095

// packStats says, for logs, what storing a pack took.
type packStats struct {
	objects, deltas int
	// held is the largest delta base or delta result held in memory.
	held int64
}

// storePack stores the pack read from r into st. A storage that is not
// go-git's filesystem storage takes go-git's own path (and reports no
// stats).
func storePack(st storer.Storer, r io.Reader) (packStats, error) {
	fs, ok := st.(*filesystem.Storage)
	if !ok {
		return packStats{}, packfile.UpdateObjectStorage(st, r)
	}
	stats, err := writePack(fs.Filesystem(), r)
	if err != nil {
		return stats, err
	}
	fs.Reindex()
	return stats, nil
}

// writePack receives, indexes and renames one pack into dot's objects/pack.
func writePack(dot billy.Filesystem, r io.Reader) (packStats, error) {
	dir := dot.Join("objects", "pack")
	if err := dot.MkdirAll(dir, 0o755); err != nil {
		return packStats{}, fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := dot.TempFile(dir, "tmp_pack_")
	if err != nil {
		return packStats{}, fmt.Errorf("create a temporary pack: %w", err)
	}
	name := tmp.Name()
	defer func() { _ = dot.Remove(name) }() // gone already once stored
	sum := &trailerHash{h: sha1.New()}
	n, err := io.CopyBuffer(io.MultiWriter(tmp, sum), r, make([]byte, packBufferSize))
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write the temporary pack: %w", cerr)
	}
	if err != nil {
		return packStats{}, err
	}
	if n == 0 {
		return packStats{}, packfile.ErrEmptyPackfile
	}
	f, err := dot.Open(name)
	if err != nil {
		return packStats{}, fmt.Errorf("read the temporary pack: %w", err)
	}
	defer f.Close()
	w, stats, err := indexPack(f, n, sum, func() (billy.File, error) { return dot.TempFile(dir, "tmp_obj_") }, dot.Remove)
	if err != nil {
		return stats, err
	}
	if err := f.Close(); err != nil {
		return packStats{}, fmt.Errorf("read the temporary pack: %w", err)
	}
	return stats, savePack(dot, dir, name, w)
}

// indexPack walks the pack in f (size bytes, checksum computed by sum as
// it was received) and returns its finished index. A REF_DELTA whose base
// is not in the pack (a thin pack) is refused, as go-git's own path
// refuses it: a pack stored with an outside base could not be read.
func indexPack(f io.ReadSeeker, size int64, sum *trailerHash, tmp func() (billy.File, error), remove func(string) error) (*idxfile.Writer, packStats, error) {
	sc := packfile.NewScanner(f)
	_, count, err := sc.Header()
	if err != nil {
		return nil, packStats{}, wrapPackEOF(err)
	}
	objs, err := scanObjects(sc, count)
	if err != nil {
		return nil, packStats{}, wrapPackEOF(err)
	}
	end, err := sc.SeekFromStart(0)
	if err != nil {
		return nil, packStats{}, err
	}
	if end != size-packHashSize {
		return nil, packStats{}, fmt.Errorf("%w: %d bytes after the last object, want %d", packfile.ErrMalformedPackFile, size-end, packHashSize)
	}
	checksum, err := sum.verify()
	if err != nil {
		return nil, packStats{}, err
	}
	res := &resolver{sc: sc, objs: objs, cache: newContentCache(baseCacheBytes), tmp: tmp, remove: remove}
	err = res.resolveAll()
	stats := packStats{objects: len(objs), deltas: res.deltas, held: res.held}
	if err != nil {
		return nil, stats, wrapPackEOF(err)
	}
	w := new(idxfile.Writer)
	if err := w.OnHeader(count); err != nil {
		return nil, stats, err
	}
	for i := range objs {
		o := &objs[i]
		if err := w.OnInflatedObjectHeader(o.typ, o.size, o.offset); err != nil {
			return nil, stats, err
		}
		if err := w.OnInflatedObjectContent(o.hash, o.offset, o.crc, nil); err != nil {
			return nil, stats, err
		}
	}
	if err := w.OnFooter(checksum); err != nil {
		return nil, stats, err
	}
	return w, stats, nil
}

// packObject is what the index needs of one object of the pack, and what
// resolving it as a delta needs.
type packObject struct {
	offset   int64
	size     int64 // inflated size as stored: a delta's is the delta's
	disk     plumbing.ObjectType
	typ      plumbing.ObjectType // resolved type, once known
	base     int64               // OFS_DELTA: the base's offset
	baseHash plumbing.Hash       // REF_DELTA: the base's hash
	crc      uint32
	hash     plumbing.Hash
	resolved bool
}

// scanObjects reads every object header, hashing whole objects as they
// stream by and taking each object's CRC-32.
func scanObjects(sc *packfile.Scanner, count uint32) ([]packObject, error) {
	objs := make([]packObject, 0, min(count, 1<<20))
	for range count {
		oh, err := sc.NextObjectHeader()
		if err != nil {
			return nil, err
		}
		o := packObject{offset: oh.Offset, size: oh.Length, disk: oh.Type, typ: oh.Type,
			base: oh.OffsetReference, baseHash: oh.Reference}
		var w io.Writer = io.Discard
		var hr plumbing.Hasher
		if !oh.Type.IsDelta() {
			hr = plumbing.NewHasher(oh.Type, oh.Length)
			w = hr
		}
		n, crc, err := sc.NextObject(w)
		if err != nil {
			return nil, err
		}
		if n != oh.Length {
			return nil, fmt.Errorf("%w: object at %d inflates to %d bytes, not %d", packfile.ErrMalformedPackFile, oh.Offset, n, oh.Length)
		}
		o.crc = crc
		if !oh.Type.IsDelta() {
			o.hash, o.resolved = hr.Sum(), true
		}
		objs = append(objs, o)
	}
	return objs, nil
}

// savePack writes the index beside the pack and renames both into place,
// the index first: the storage lists packs by their .pack file.
func savePack(dot billy.Filesystem, dir, tmpPack string, w *idxfile.Writer) error {
	idx, err := w.Index()
	if err != nil {
		return err
	}
	base := dot.Join(dir, "pack-"+plumbing.Hash(idx.PackfileChecksum).String())
	if err := placeFile(dot, dir, base+".idx", func(f io.Writer) error {
		_, err := idxfile.NewEncoder(f).Encode(idx)
		return err
	}); err != nil {
		return err
	}
	if _, err := dot.Lstat(base + ".pack"); err == nil {
		return nil // the same pack is stored already; the caller removes tmpPack
	}
	if err := dot.Rename(tmpPack, base+".pack"); err != nil {
		return fmt.Errorf("store pack %s: %w", base, err)
	}
	readOnly(dot, base+".pack")
	return nil
}

// placeFile writes path through a temporary file, unless it exists.
func placeFile(dot billy.Filesystem, dir, path string, write func(io.Writer) error) error {
	if _, err := dot.Lstat(path); err == nil {
		return nil
	}
	tmp, err := dot.TempFile(dir, "tmp_idx_")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dot.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = dot.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	readOnly(dot, path)
	return nil
}

// readOnly marks a stored pack file read-only, as Git and go-git do.
func readOnly(dot billy.Filesystem, path string) {
	if c, ok := dot.(billy.Chmod); ok {
		_ = c.Chmod(path, 0o444)
	}
}

// wrapPackEOF reports a pack that ends early as malformed and cut short
// (which the error classification treats as a dropped connection), as
// go-git's parser does.
func wrapPackEOF(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: %w", packfile.ErrMalformedPackFile, io.ErrUnexpectedEOF)
	}
	return err
}

// trailerHash hashes everything written to it except the last 20 bytes,
// which it keeps: the SHA-1 of a pack and the checksum it ends with.
type trailerHash struct {
	h    hash.Hash
	tail [packHashSize]byte
	n    int
}

func (t *trailerHash) Write(p []byte) (int, error) {
	total := t.n + len(p)
	if total <= len(t.tail) {
		copy(t.tail[t.n:], p)
		t.n = total
		return len(p), nil
	}
	out := total - len(t.tail)
	fromTail := min(out, t.n)
	t.h.Write(t.tail[:fromTail])
	fromP := out - fromTail
	t.h.Write(p[:fromP])
	var next [packHashSize]byte
	k := copy(next[:], t.tail[fromTail:t.n])
	copy(next[k:], p[fromP:])
	t.tail, t.n = next, len(t.tail)
	return len(p), nil
}

// verify returns the pack's checksum if it matches its content.
func (t *trailerHash) verify() (plumbing.Hash, error) {
	var got, want plumbing.Hash
	copy(got[:], t.h.Sum(nil))
	copy(want[:], t.tail[:])
	if t.n < len(t.tail) || got != want {
		return plumbing.ZeroHash, fmt.Errorf("%w: checksum mismatch: %q instead of %q", packfile.ErrMalformedPackFile, want, got)
	}
	return want, nil
}
