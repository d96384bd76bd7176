package docs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Bounds of the validator cache. When either is exceeded the cache starts
// again empty: a site has a bounded number of files, so a reset is rare and
// costs one hash per file.
const (
	maxCachedFiles    = 16384
	maxCachedGzipSize = 4 << 20  // files larger than this are compressed per request
	maxCachedGzipMem  = 64 << 20 // total compressed bytes kept
)

// fileKey identifies one version of one file without reading it.
type fileKey struct {
	name     string
	size     int64
	mtime    int64
	dev, ino uint64
}

func keyOf(name string, fi fs.FileInfo) fileKey {
	dev, ino := fileID(fi)
	return fileKey{name: name, size: fi.Size(), mtime: fi.ModTime().UnixNano(), dev: dev, ino: ino}
}

// fileMeta is what the cache knows about one file version: its strong ETag
// and, once a client asked for gzip, its compressed bytes.
type fileMeta struct {
	etag string
	gz   []byte
}

// metaCache remembers ETags (and small gzip bodies) by path, size, mtime and
// inode, so a file's content is hashed once, not on every request.
type metaCache struct {
	mu      sync.Mutex
	entries map[fileKey]fileMeta
	gzMem   int64
}

func newMetaCache() *metaCache {
	return &metaCache{entries: make(map[fileKey]fileMeta)}
}

// lookup returns the cached metadata of key, if any.
func (c *metaCache) lookup(key fileKey) (fileMeta, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.entries[key]
	return m, ok
}

// store records meta for key, resetting the cache when it is full.
func (c *metaCache) store(key fileKey, meta fileMeta) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, had := c.entries[key]
	if had {
		c.gzMem -= int64(len(old.gz))
	}
	if len(c.entries) >= maxCachedFiles || c.gzMem+int64(len(meta.gz)) > maxCachedGzipMem {
		clear(c.entries)
		c.gzMem = 0
	}
	c.entries[key] = meta
	c.gzMem += int64(len(meta.gz))
}

// etagOf returns the strong ETag of the file behind r, hashing its content
// on a cache miss. It leaves r positioned at the start.
func (c *metaCache) etagOf(key fileKey, r io.ReadSeeker) (string, error) {
	if m, ok := c.lookup(key); ok {
		return m.etag, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", fmt.Errorf("hash %s: %w", key.name, err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("rewind %s: %w", key.name, err)
	}
	etag := `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
	c.store(key, fileMeta{etag: etag})
	return etag, nil
}

// gzipOf returns the gzip body of a file small enough to cache, compressing
// it on the first request. ok is false for larger files, which the caller
// compresses while sending. It leaves r positioned at the start.
func (c *metaCache) gzipOf(key fileKey, etag string, r io.ReadSeeker) (gz []byte, ok bool, err error) {
	if key.size > maxCachedGzipSize {
		return nil, false, nil
	}
	if m, hit := c.lookup(key); hit && m.gz != nil {
		return m.gz, true, nil
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", key.name, err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, false, fmt.Errorf("rewind %s: %w", key.name, err)
	}
	gz, err = gzipBytes(raw)
	if err != nil {
		return nil, false, fmt.Errorf("compress %s: %w", key.name, err)
	}
	c.store(key, fileMeta{etag: etag, gz: gz})
	return gz, true, nil
}

// gzipETag is the validator of the gzip representation: a strong ETag names
// one sequence of bytes, so the compressed body needs its own.
func gzipETag(etag string) string {
	return strings.TrimSuffix(etag, `"`) + `-gz"`
}

// notModified applies If-None-Match (which wins when present) and
// If-Modified-Since to a GET or HEAD of a resource with etag and modtime.
func notModified(r *http.Request, etag string, modtime time.Time) bool {
	if inm := r.Header.Values("If-None-Match"); len(inm) > 0 {
		return etagListMatches(strings.Join(inm, ","), etag)
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || modtime.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	if err != nil {
		return false
	}
	return !modtime.Truncate(time.Second).After(t)
}

// etagListMatches is the weak comparison If-None-Match asks for: "*" or any
// listed tag equal to etag once the W/ prefixes are dropped.
func etagListMatches(list, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, tag := range strings.Split(list, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == want {
			return true
		}
	}
	return false
}
