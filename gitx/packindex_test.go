package gitx

import (
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/docweave/docweave/internal/gittest"
)

// versionedPage is version v of a page of about 24 KiB whose versions
// differ in a few lines, so Git stores them as deltas of one another.
func versionedPage(name string, v int) string {
	var b strings.Builder
	for line := range 400 {
		if line%97 == v%97 || line == v {
			fmt.Fprintf(&b, "Line %d of %s was edited in version %d.\n", line, name, v)
			continue
		}
		fmt.Fprintf(&b, "Line %d of %s says what this page explains, at some length.\n", line, name)
	}
	return b.String()
}

// commitVersions commits versions from..to of three pages, one commit each.
func commitVersions(t *testing.T, r *gittest.Repo, from, to int) {
	for v := from; v <= to; v++ {
		r.Commit(t, map[string]string{
			"docs/guide.md":     versionedPage("guide", v),
			"docs/reference.md": versionedPage("reference", v*3),
			"docs/faq.md":       versionedPage("faq", v/2),
		}, fmt.Sprintf("version %d", v))
	}
}

// Packs with deltas (many versions of the same pages, fetched several
// commits deep, then updated, over file:// and HTTP) are stored so that
// every object reads back with the hash it is stored under, the checkout
// matches the remote, and each pack's index is byte for byte the index
// go-git's own parser writes for the same pack.
func TestStoredPacksMatchGoGitsIndex(t *testing.T) {
	for _, transport := range []string{"file", "http"} {
		t.Run(transport, func(t *testing.T) {
			r := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home\n"})
			commitVersions(t, r, 1, 16)
			r.Git(t, "repack", "-a", "-d", "-q", "--depth=50", "--window=50")
			url := r.FileURL()
			if transport == "http" {
				url = gittest.NewHTTPServer(t, gittest.HTTPOptions{}).Add(t, "docs", r)
			}
			dir := workdir(t)
			req := Request{URL: url, Dir: dir, Depth: 10, Strategy: StrategyUpdate}
			mustAcquire(t, req)
			checkStore(t, dir, r)
			commitVersions(t, r, 17, 24)
			res := mustAcquire(t, req)
			if !res.Updated || res.Commit != r.Head(t) {
				t.Fatalf("update: %+v, want %s", res, r.Head(t))
			}
			for _, name := range []string{"guide", "reference", "faq"} {
				want := r.Git(t, "show", "HEAD:docs/"+name+".md")
				if got := readFile(t, filepath.Join(dir, "docs", name+".md")); strings.TrimSpace(got) != strings.TrimSpace(want) {
					t.Fatalf("docs/%s.md differs from the remote's", name)
				}
			}
			checkStore(t, dir, r)
		})
	}
}

// checkStore reads every object of the workspace dir through go-git and
// compares each pack's index with the one go-git's parser makes of it.
func checkStore(t *testing.T, dir string, r *gittest.Repo) {
	t.Helper()
	packs, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if err != nil || len(packs) == 0 {
		t.Fatalf("no pack stored in %s: %v", dir, err)
	}
	deltas := 0
	for _, pack := range packs {
		verify := r.Git(t, "verify-pack", "-v", pack)
		deltas += strings.Count(verify, "\nchain length")
		theirs := goGitIndex(t, pack)
		ours, err := os.ReadFile(strings.TrimSuffix(pack, ".pack") + ".idx")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ours, theirs) {
			t.Fatalf("index of %s differs from go-git's (%d and %d bytes)", filepath.Base(pack), len(ours), len(theirs))
		}
	}
	if deltas == 0 {
		t.Fatal("the stored packs hold no deltas; the test proves nothing")
	}
	repo, closeRepo, err := openRepo(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer closeRepo()
	iter, err := repo.Storer.IterEncodedObjects(plumbing.AnyObject)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	err = iter.ForEach(func(o plumbing.EncodedObject) error {
		rd, err := o.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		h := plumbing.NewHasher(o.Type(), o.Size())
		if _, err := io.Copy(h, rd); err != nil {
			return err
		}
		if h.Sum() != o.Hash() {
			return fmt.Errorf("object %s reads back as %s", o.Hash(), h.Sum())
		}
		count++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if count == 0 {
		t.Fatal("no object read back")
	}
}

// goGitIndex stores pack through go-git's own path into a new repository
// and returns the index it writes.
func goGitIndex(t testing.TB, pack string) []byte {
	t.Helper()
	f, err := os.Open(pack)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	other := t.TempDir()
	st := filesystem.NewStorage(osfs.New(other), cache.NewObjectLRUDefault())
	if err := packfile.UpdateObjectStorage(st, f); err != nil {
		t.Fatalf("go-git stores %s: %v", filepath.Base(pack), err)
	}
	idx, err := os.ReadFile(strings.TrimSuffix(filepath.Join(other, "objects", "pack", filepath.Base(pack)), ".pack") + ".idx")
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// A pack cut short, or whose checksum does not match, is refused and
// leaves nothing behind in objects/pack.
func TestDamagedPackIsRefused(t *testing.T) {
	r := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home\n"})
	commitVersions(t, r, 1, 5)
	r.Git(t, "repack", "-a", "-d", "-q")
	packs, _ := filepath.Glob(filepath.Join(r.Dir(), ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	whole, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(whole)
	flipped[len(flipped)-1] ^= 0xff
	for name, data := range map[string][]byte{"cut": whole[:len(whole)/2], "checksum": flipped} {
		t.Run(name, func(t *testing.T) {
			dot := t.TempDir()
			st := filesystem.NewStorage(osfs.New(dot), cache.NewObjectLRUDefault())
			_, err := storePack(st, bytes.NewReader(data))
			if err == nil || !strings.Contains(err.Error(), "malformed") {
				t.Fatalf("storing a damaged pack: %v", err)
			}
			left, _ := filepath.Glob(filepath.Join(dot, "objects", "pack", "*"))
			if len(left) != 0 {
				t.Fatalf("left behind: %v", left)
			}
		})
	}
}

// A refused file is never read into memory, not even while its pack is
// stored: acquiring a repository with a 64 MiB incompressible file over
// MaxFileBytes keeps the heap far below the file's size, and storing the
// pack that holds it allocates far less than its size. go-git's own path
// inflated every object of the pack into memory to index it.
func TestRefusedFileIsNeverHeldWhileStoringItsPack(t *testing.T) {
	const size = 64 << 20
	huge := make([]byte, size)
	if _, err := rand.Read(huge); err != nil {
		t.Fatal(err)
	}
	r := gittest.NewBulkRepo(t, map[string]string{"docs/huge.bin": string(huge), "docs/index.md": "# Home\n"})
	huge = nil

	dir := workdir(t)
	peak := peakHeapDuring(func() {
		mustAcquire(t, Request{URL: r.FileURL(), Dir: dir, Depth: 1, MaxFileBytes: 1 << 20})
	})
	if peak > size/4 {
		t.Fatalf("acquiring a repository with a refused %d-byte file grew the heap by %d bytes", size, peak)
	}
	if got := readFile(t, filepath.Join(dir, "docs", "index.md")); got != "# Home\n" {
		t.Fatalf("docs/index.md = %q", got)
	}

	// Storing the received pack alone, from a file, counting every allocation.
	packs, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "pack-*.pack"))
	if err != nil || len(packs) != 1 {
		t.Fatalf("packs: %v, %v", packs, err)
	}
	f, err := os.Open(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st := filesystem.NewStorage(osfs.New(t.TempDir()), cache.NewObjectLRUDefault())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := storePack(st, f); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > size/8 {
		t.Fatalf("storing a pack with a %d-byte object allocated %d bytes; the object was read", size, grew)
	}
}

// peakHeapDuring runs f and returns how far the heap in use rose above
// where it started, sampled every millisecond.
func peakHeapDuring(f func()) uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		var ms runtime.MemStats
		top := uint64(0)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				sampled <- top
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				top = max(top, ms.HeapAlloc)
			}
		}
	}()
	f()
	close(done)
	peak = max(peak, <-sampled)
	return peak - base
}

// Packs with either kind of delta — by offset, as fetches ask for, and by
// hash, as a server without ofs-delta sends — are indexed exactly as Git
// indexes them: the .idx is Git's own, byte for byte. So they are with
// every delta base and result spilled to a temporary file, as large ones
// are.
func TestPackIndexIsGitsOwn(t *testing.T) {
	for _, c := range []struct {
		ofs   bool
		spill int64
	}{{true, spillBytes}, {false, spillBytes}, {true, 1 << 10}, {false, 1 << 10}} {
		t.Run(fmt.Sprintf("ofs-delta=%v,spill=%d", c.ofs, c.spill), func(t *testing.T) {
			defer func(was int64) { spillBytes = was }(spillBytes)
			spillBytes = c.spill
			ofs := c.ofs
			r := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home\n"})
			commitVersions(t, r, 1, 12)
			r.Git(t, "-c", fmt.Sprintf("repack.useDeltaBaseOffset=%v", ofs), "repack", "-a", "-d", "-f", "-q")
			packs, _ := filepath.Glob(filepath.Join(r.Dir(), ".git", "objects", "pack", "*.pack"))
			if len(packs) != 1 {
				t.Fatalf("packs: %v", packs)
			}
			kind := plumbing.OFSDeltaObject
			if !ofs {
				kind = plumbing.REFDeltaObject
			}
			if n := countObjects(t, packs[0], kind); n < 10 {
				t.Fatalf("the pack holds %d objects of type %s; the test proves little", n, kind)
			}
			f, err := os.Open(packs[0])
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			dot := t.TempDir()
			st := filesystem.NewStorage(osfs.New(dot), cache.NewObjectLRUDefault())
			if _, err := storePack(st, f); err != nil {
				t.Fatalf("store a pack of %s: %v", kind, err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(packs[0], ".pack") + ".idx")
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dot, "objects", "pack", strings.TrimSuffix(filepath.Base(packs[0]), ".pack")+".idx"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("index of a pack of %s differs from Git's (%d and %d bytes)", kind, len(got), len(want))
			}
			if left, _ := filepath.Glob(filepath.Join(dot, "objects", "pack", "tmp_*")); len(left) != 0 {
				t.Fatalf("temporary files left behind: %v", left)
			}
		})
	}
}

// countObjects counts the objects of type typ stored in pack.
func countObjects(t *testing.T, pack string, typ plumbing.ObjectType) int {
	t.Helper()
	f, err := os.Open(pack)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := packfile.NewScanner(f)
	_, count, err := sc.Header()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range count {
		oh, err := sc.NextObjectHeader()
		if err != nil {
			t.Fatal(err)
		}
		if oh.Type == typ {
			n++
		}
	}
	return n
}

// craftedPack writes a pack of the given entries: whole objects, and
// REF_DELTAs (typ REFDeltaObject, base set) whose data is a delta.
type craftedEntry struct {
	typ  plumbing.ObjectType
	base plumbing.Hash
	data []byte
}

func craftPack(t *testing.T, entries []craftedEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("PACK")
	_ = binary.Write(&b, binary.BigEndian, uint32(2))
	_ = binary.Write(&b, binary.BigEndian, uint32(len(entries)))
	for _, e := range entries {
		size := len(e.data)
		c := byte(e.typ)<<4 | byte(size&0x0f)
		size >>= 4
		for size > 0 {
			b.WriteByte(c | 0x80)
			c = byte(size & 0x7f)
			size >>= 7
		}
		b.WriteByte(c)
		if e.typ == plumbing.REFDeltaObject {
			b.Write(e.base[:])
		}
		zw := zlib.NewWriter(&b)
		_, _ = zw.Write(e.data)
		_ = zw.Close()
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// appendDelta is a delta that copies all of a base of baseLen bytes and
// appends tail.
func appendDelta(baseLen int, tail string) []byte {
	varint := func(b []byte, n int) []byte {
		for n >= 0x80 {
			b = append(b, byte(n)|0x80)
			n >>= 7
		}
		return append(b, byte(n))
	}
	d := varint(nil, baseLen)
	d = varint(d, baseLen+len(tail))
	d = append(d, 0x80|0x10|0x20, byte(baseLen), byte(baseLen>>8)) // copy offset 0, size baseLen
	d = append(d, byte(len(tail)))
	return append(d, tail...)
}

// A REF_DELTA may come before its base, even when that base is a delta
// itself; it is resolved once the base is. One whose base is in no pack
// (a thin pack) is refused, as go-git refuses it, and nothing is stored.
func TestRefDeltaBeforeItsBase(t *testing.T) {
	first := strings.Repeat("The first version of a page.\n", 8)
	second := first + "A second paragraph.\n"
	third := second + "A third one.\n"
	h1 := plumbing.ComputeHash(plumbing.BlobObject, []byte(first))
	h2 := plumbing.ComputeHash(plumbing.BlobObject, []byte(second))
	h3 := plumbing.ComputeHash(plumbing.BlobObject, []byte(third))
	pack := craftPack(t, []craftedEntry{
		{typ: plumbing.REFDeltaObject, base: h2, data: appendDelta(len(second), "A third one.\n")},
		{typ: plumbing.REFDeltaObject, base: h1, data: appendDelta(len(first), "A second paragraph.\n")},
		{typ: plumbing.BlobObject, data: []byte(first)},
	})
	dot := t.TempDir()
	st := filesystem.NewStorage(osfs.New(dot), cache.NewObjectLRUDefault())
	if _, err := storePack(st, bytes.NewReader(pack)); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[plumbing.Hash]string{h1: first, h2: second, h3: third} {
		o, err := st.EncodedObject(plumbing.BlobObject, h)
		if err != nil {
			t.Fatalf("blob %s: %v", h, err)
		}
		rd, _ := o.Reader()
		got, _ := io.ReadAll(rd)
		rd.Close()
		if string(got) != want {
			t.Fatalf("blob %s reads %q", h, got)
		}
	}
	// go-git's own parser refuses this pack (a REF_DELTA's base that is a
	// later delta); Git's index-pack takes it, and writes the same index.
	packs, _ := filepath.Glob(filepath.Join(dot, "objects", "pack", "*.pack"))
	ours, _ := os.ReadFile(strings.TrimSuffix(packs[0], ".pack") + ".idx")
	gitIdx := filepath.Join(t.TempDir(), "git.idx")
	gittest.Git(t, t.TempDir(), "index-pack", "-o", gitIdx, packs[0])
	if theirs, err := os.ReadFile(gitIdx); err != nil || !bytes.Equal(ours, theirs) {
		t.Fatalf("index differs from Git's: %v", err)
	}

	thin := craftPack(t, []craftedEntry{
		{typ: plumbing.REFDeltaObject, base: h1, data: appendDelta(len(first), "A second paragraph.\n")},
	})
	dot = t.TempDir()
	st = filesystem.NewStorage(osfs.New(dot), cache.NewObjectLRUDefault())
	if _, err := storePack(st, bytes.NewReader(thin)); !errors.Is(err, packfile.ErrReferenceDeltaNotFound) {
		t.Fatalf("a thin pack: %v, want %v", err, packfile.ErrReferenceDeltaNotFound)
	}
	if left, _ := filepath.Glob(filepath.Join(dot, "objects", "pack", "*")); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}
