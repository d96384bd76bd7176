package gitx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// Resolving the deltas of a stored pack. A delta is rebuilt from its base
// to learn its hash; the base is read back from the pack, kept in memory
// when small and spilled to a temporary file beside the pack when larger
// than spillBytes, and a delta's result is streamed into SHA-1 unless
// another delta needs it as its base (then kept or spilled the same way).
// So memory holds small objects and delta instructions only, whatever the
// size of the files in the pack.

// spillBytes is the largest delta base or result held in memory; a larger
// one goes to a temporary file. A variable so tests can exercise spilling
// with small objects.
var spillBytes int64 = baseCacheBytes / 4

// held is an object's content being used as a delta base: in memory or in
// a temporary file, which release removes.
type held struct {
	io.ReaderAt
	size    int64
	release func()
}

func inMemory(data []byte) held {
	return held{ReaderAt: bytes.NewReader(data), size: int64(len(data)), release: func() {}}
}

// resolver finds the type and hash of every delta of a pack.
type resolver struct {
	sc       *packfile.Scanner
	objs     []packObject
	byOffset map[int64]int
	byHash   map[plumbing.Hash]int
	cache    *contentCache
	// tmp creates a temporary file for a spilled object.
	tmp func() (billy.File, error)
	// remove deletes a temporary file by name.
	remove func(string) error
	// ofsBases marks the offsets OFS_DELTAs name as their base;
	// refDeltas says some REF_DELTA may name any object.
	ofsBases  map[int64]bool
	refDeltas bool
	buf       []byte
	// deltas counts the deltas resolved; held is the largest base or
	// result they needed in memory.
	deltas int
	held   int64
}

// errBaseNotYet says a REF_DELTA's base is a delta not resolved yet.
var errBaseNotYet = errors.New("delta base not resolved yet")

// resolveAll resolves the deltas in pack order, again and again while a
// REF_DELTA waits for a base that is itself a later delta.
func (r *resolver) resolveAll() error {
	r.byOffset = make(map[int64]int, len(r.objs))
	r.byHash = make(map[plumbing.Hash]int, len(r.objs))
	r.ofsBases = map[int64]bool{}
	r.buf = make([]byte, 64<<10)
	var pending []int
	for i := range r.objs {
		o := &r.objs[i]
		r.byOffset[o.offset] = i
		switch {
		case o.resolved:
			r.byHash[o.hash] = i
		case o.disk == plumbing.OFSDeltaObject:
			r.ofsBases[o.base] = true
		default:
			r.refDeltas = true
		}
		if !o.resolved {
			pending = append(pending, i)
		}
	}
	for len(pending) > 0 {
		var later []int
		for _, i := range pending {
			if r.objs[i].resolved {
				continue
			}
			_, _, err := r.content(i, 0, false)
			if errors.Is(err, errBaseNotYet) {
				later = append(later, i)
				continue
			}
			if err != nil {
				return err
			}
		}
		if len(later) == len(pending) {
			return fmt.Errorf("%w: %s", packfile.ErrReferenceDeltaNotFound, r.objs[later[0]].baseHash)
		}
		pending = later
	}
	return nil
}

// content returns object i's content (a delta rebuilt) when need is set,
// with its type, recording a delta's hash the first time it is rebuilt.
// Without need a delta's result is only hashed (and cached, if small and
// some delta may use it as a base). The caller releases what it gets.
func (r *resolver) content(i, depth int, need bool) (held, plumbing.ObjectType, error) {
	o := &r.objs[i]
	if data, ok := r.cache.get(o.offset); ok {
		return inMemory(data), o.typ, nil
	}
	if !o.disk.IsDelta() {
		h, err := r.keep(o.offset, o.size, func(w io.Writer) error {
			if _, err := r.sc.SeekObjectHeader(o.offset); err != nil {
				return err
			}
			_, _, err := r.sc.NextObject(w)
			return err
		})
		return h, o.typ, err
	}
	if depth > maxDeltaDepth {
		return held{}, 0, fmt.Errorf("%w: delta chain depth exceeds %d", packfile.ErrMalformedPackFile, maxDeltaDepth)
	}
	base, typ, err := r.baseOf(o, depth)
	if err != nil {
		return held{}, 0, err
	}
	defer base.release()
	delta, err := r.inflate(o)
	if err != nil {
		return held{}, 0, err
	}
	src, dst, ops, err := deltaSizes(delta)
	if err != nil || src != base.size {
		return held{}, 0, fmt.Errorf("%w: the delta at %d does not fit its base (%d bytes, not %d): %v", packfile.ErrMalformedPackFile, o.offset, base.size, src, err)
	}
	hasher := plumbing.NewHasher(typ, dst)
	patch := func(w io.Writer) error { return r.applyDelta(base, ops, dst, io.MultiWriter(hasher, w)) }
	var out held
	switch {
	case need:
		out, err = r.keep(o.offset, dst, patch)
	case dst <= spillBytes && (r.ofsBases[o.offset] || r.refDeltas):
		out, err = r.keep(o.offset, dst, patch) // cached for the deltas to come
		if err == nil {
			out.release()
		}
		out = held{release: func() {}}
	default:
		err = r.applyDelta(base, ops, dst, hasher)
		out = held{release: func() {}}
	}
	if err != nil {
		return held{}, 0, err
	}
	if !o.resolved {
		r.deltas++
		o.typ, o.hash, o.resolved = typ, hasher.Sum(), true
		if _, ok := r.byHash[o.hash]; !ok {
			r.byHash[o.hash] = i
		}
	}
	return out, typ, nil
}

// keep writes the object at offset off, of size bytes, through write into
// memory (and the cache) or, when larger than spillBytes, into a
// temporary file.
func (r *resolver) keep(off, size int64, write func(io.Writer) error) (held, error) {
	if size <= spillBytes {
		buf := bytes.NewBuffer(make([]byte, 0, size))
		if err := write(buf); err != nil {
			return held{}, err
		}
		r.held = max(r.held, size)
		r.cache.put(off, buf.Bytes())
		return inMemory(buf.Bytes()), nil
	}
	f, err := r.tmp()
	if err != nil {
		return held{}, fmt.Errorf("spill a delta base: %w", err)
	}
	release := func() {
		_ = f.Close()
		_ = r.remove(f.Name())
	}
	bw := bufio.NewWriterSize(f, len(r.buf))
	if err := write(bw); err != nil {
		release()
		return held{}, err
	}
	if err := bw.Flush(); err != nil {
		release()
		return held{}, fmt.Errorf("spill a delta base: %w", err)
	}
	return held{ReaderAt: f, size: size, release: release}, nil
}

// baseOf returns the content and type of a delta's base.
func (r *resolver) baseOf(o *packObject, depth int) (held, plumbing.ObjectType, error) {
	if o.disk == plumbing.OFSDeltaObject {
		bi, ok := r.byOffset[o.base]
		if !ok {
			return held{}, 0, fmt.Errorf("%w: no object at offset %d, the base of the delta at %d", packfile.ErrMalformedPackFile, o.base, o.offset)
		}
		return r.content(bi, depth+1, true)
	}
	if bi, ok := r.byHash[o.baseHash]; ok {
		return r.content(bi, depth+1, true)
	}
	if len(r.byHash) < len(r.objs) { // a delta not rebuilt yet may be the base
		return held{}, 0, errBaseNotYet
	}
	return held{}, 0, fmt.Errorf("%w: %s", packfile.ErrReferenceDeltaNotFound, o.baseHash)
}

// inflate reads object o's stored content (a delta's instructions) whole.
func (r *resolver) inflate(o *packObject) ([]byte, error) {
	if _, err := r.sc.SeekObjectHeader(o.offset); err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(make([]byte, 0, o.size))
	if _, _, err := r.sc.NextObject(buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// deltaSizes reads a delta's header: the sizes of its base and result.
func deltaSizes(delta []byte) (src, dst int64, ops []byte, err error) {
	src, delta, err = deltaVarint(delta)
	if err != nil {
		return 0, 0, nil, err
	}
	dst, delta, err = deltaVarint(delta)
	return src, dst, delta, err
}

func deltaVarint(b []byte) (int64, []byte, error) {
	var v int64
	for shift := 0; shift < 63; shift += 7 {
		if len(b) == 0 {
			return 0, nil, errors.New("delta header cut short")
		}
		c := b[0]
		b = b[1:]
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, b, nil
		}
	}
	return 0, nil, errors.New("delta header too long")
}

// applyDelta writes the result of delta instructions ops on base to w: a
// copy from the base, or bytes given inline, one instruction at a time,
// so the result is never whole in memory.
func (r *resolver) applyDelta(base held, ops []byte, dst int64, w io.Writer) error {
	var written int64
	for len(ops) > 0 {
		op := ops[0]
		ops = ops[1:]
		switch {
		case op&0x80 != 0:
			var off, n int64
			for bit := range 7 {
				if op&(1<<bit) == 0 {
					continue
				}
				if len(ops) == 0 {
					return fmt.Errorf("%w: delta copy instruction cut short", packfile.ErrMalformedPackFile)
				}
				if bit < 4 {
					off |= int64(ops[0]) << (8 * bit)
				} else {
					n |= int64(ops[0]) << (8 * (bit - 4))
				}
				ops = ops[1:]
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > base.size || written+n > dst {
				return fmt.Errorf("%w: delta copies past its base or result", packfile.ErrMalformedPackFile)
			}
			if _, err := io.CopyBuffer(w, io.NewSectionReader(base, off, n), r.buf); err != nil {
				return err
			}
			written += n
		case op != 0:
			n := int64(op)
			if n > int64(len(ops)) || written+n > dst {
				return fmt.Errorf("%w: delta insert instruction cut short", packfile.ErrMalformedPackFile)
			}
			if _, err := w.Write(ops[:n]); err != nil {
				return err
			}
			ops = ops[n:]
			written += n
		default:
			return fmt.Errorf("%w: delta instruction 0", packfile.ErrMalformedPackFile)
		}
	}
	if written != dst {
		return fmt.Errorf("%w: delta result of %d bytes, not %d", packfile.ErrMalformedPackFile, written, dst)
	}
	return nil
}

// contentCache keeps recently resolved objects, bounded in bytes, so a
// chain of deltas resolves each link once.
type contentCache struct {
	max, used int64
	order     []int64
	data      map[int64][]byte
}

func newContentCache(max int64) *contentCache {
	return &contentCache{max: max, data: map[int64][]byte{}}
}

func (c *contentCache) get(off int64) ([]byte, bool) {
	d, ok := c.data[off]
	return d, ok
}

// put keeps data, dropping the oldest entries to stay within the bound.
func (c *contentCache) put(off int64, data []byte) {
	size := int64(len(data))
	if size > c.max/4 {
		return
	}
	if _, ok := c.data[off]; ok {
		return
	}
	for c.used+size > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.used -= int64(len(c.data[old]))
		delete(c.data, old)
	}
	c.data[off] = data
	c.order = append(c.order, off)
	c.used += size
}
