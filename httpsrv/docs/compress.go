package docs

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
)

// minGzipSize is the smallest body worth compressing: below it the gzip
// header and trailer eat the gain.
const minGzipSize = 256

// compressible reports whether a media type is text-like enough to gain from
// gzip. Images, fonts and archives are compressed already.
func compressible(contentType string) bool {
	mt := baseMediaType(contentType)
	switch {
	case strings.HasPrefix(mt, "text/"):
		return true
	case mt == "application/json", mt == "application/javascript", mt == "application/xml",
		mt == "application/x-ndjson", mt == "image/svg+xml":
		return true
	case strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	return false
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip:
// "gzip" (or "x-gzip", or "*" when gzip is not named) with a quality above
// zero.
func acceptsGzip(r *http.Request) bool {
	star := false
	for _, header := range r.Header.Values("Accept-Encoding") {
		for _, item := range strings.Split(header, ",") {
			coding, params, _ := strings.Cut(item, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			q := qualityOf(params)
			switch coding {
			case "gzip", "x-gzip":
				return q > 0
			case "*":
				star = q > 0
			}
		}
	}
	return star
}

// qualityOf reads the q parameter of an Accept-Encoding item; a missing or
// malformed q counts as 1, as HTTP says for a missing one.
func qualityOf(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || strings.ToLower(strings.TrimSpace(name)) != "q" {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return 1
		}
		return q
	}
	return 1
}

// gzipBytes compresses b at the default level.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(b)/3 + 64)
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
