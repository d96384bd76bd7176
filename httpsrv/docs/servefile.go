package docs

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"

	"github.com/docweave/docweave/logging"
)

// serveFile sends f with validators, compression and cache headers. Status
// 200 honours conditional and range requests; the 404 page is sent whole.
func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, name string, f *os.File, fi fs.FileInfo, status int) {
	ctype, err := contentTypeOf(name, f)
	if err != nil {
		h.internalError(w, err)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", ctype)
	setSecurityHeaders(hdr)
	if status == http.StatusOK {
		hdr.Set("Cache-Control", cacheControlFor(name, ctype))
	} else {
		hdr.Set("Cache-Control", CacheError)
	}

	key := keyOf(name, fi)
	etag, err := h.cache.etagOf(key, f)
	if err != nil {
		h.internalError(w, err)
		return
	}
	canGzip := compressible(ctype) && fi.Size() >= minGzipSize
	if canGzip {
		hdr.Add("Vary", "Accept-Encoding")
	}
	if base := path.Base(name); base == "index.html" || base == "index.md" {
		hdr.Add("Vary", "Accept") // a page: its HTML or its Markdown copy (markdown.go)
	}
	useGzip := canGzip && acceptsGzip(r) && r.Header.Get("Range") == ""

	identityETag := etag
	if status == http.StatusOK {
		if useGzip {
			etag = gzipETag(etag)
		}
		hdr.Set("ETag", etag)
		hdr.Set("Last-Modified", fi.ModTime().UTC().Format(http.TimeFormat))
		if notModified(r, etag, fi.ModTime()) {
			for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding"} {
				hdr.Del(k)
			}
			w.WriteHeader(http.StatusNotModified)
			return
		}
		if !useGzip {
			// ServeContent adds ranges and HEAD handling to the identity body.
			http.ServeContent(w, r, name, fi.ModTime(), f)
			return
		}
	}

	if !useGzip {
		hdr.Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			io.Copy(w, f)
		}
		return
	}
	h.writeGzip(w, r, key, identityETag, f, status)
}

// writeGzip sends the gzip body of f: from the cache for files up to
// maxCachedGzipSize, compressed while sending for larger ones. identityETag
// is the ETag of the uncompressed content, under which the cache keeps it.
func (h *handler) writeGzip(w http.ResponseWriter, r *http.Request, key fileKey, identityETag string, f *os.File, status int) {
	hdr := w.Header()
	hdr.Set("Content-Encoding", "gzip")
	gz, cached, err := h.cache.gzipOf(key, identityETag, f)
	if err != nil {
		hdr.Del("Content-Encoding")
		h.internalError(w, err)
		return
	}
	if cached {
		hdr.Set("Content-Length", strconv.Itoa(len(gz)))
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			w.Write(gz)
		}
		return
	}
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	zw := gzip.NewWriter(w)
	if _, err := io.Copy(zw, f); err != nil {
		h.log.Warn().Err(err).Str(logging.FieldServer, ServerName).Str("file", key.name).Msg("send compressed file")
		return
	}
	zw.Close()
}

func (h *handler) internalError(w http.ResponseWriter, err error) {
	h.log.Error().Err(err).Str(logging.FieldServer, ServerName).Msg("serve site file")
	writeError(w, http.StatusInternalServerError, CodeInternal, "the file could not be read")
}

// contentTypeOf picks the media type from the extension, or sniffs the first
// 512 bytes when the extension is unknown. It leaves f at the start.
func contentTypeOf(name string, f io.ReadSeeker) (string, error) {
	if path.Ext(name) == ".md" {
		return markdownType, nil // mime.types lacks it on many systems
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		return ct, nil
	}
	var buf [512]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("sniff %s: %w", name, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("rewind %s: %w", name, err)
	}
	return http.DetectContentType(buf[:n]), nil
}
