package docs

import (
	"net/http"
	"path"
	"strings"
)

// Cache-Control values, by kind of file. A publish must become visible at
// once, so anything whose URL stays the same across builds is revalidated;
// only files whose name carries a content hash may be kept for good.
const (
	// CacheDocument is sent for HTML, JSON, XML, CSS, JavaScript and other
	// files a new build may change under the same URL: caches keep them but
	// revalidate every time, which costs a 304 thanks to the ETag.
	CacheDocument = "no-cache"
	// CacheFingerprinted is sent for files whose name carries a content hash
	// (Hugo's fingerprinted assets): their content never changes.
	CacheFingerprinted = "public, max-age=31536000, immutable"
	// CacheMedia is sent for images, fonts, audio and video without a hash in
	// the name: they rarely change, and a few minutes of staleness after a
	// publish is harmless.
	CacheMedia = "public, max-age=300"
	// CacheError is sent with the 404 page and the placeholder.
	CacheError = "no-store"
)

// setSecurityHeaders adds the headers a static documentation site wants on
// every page. There is deliberately no Content-Security-Policy: the theme's
// live-reload client talks to another port and documentation may embed
// content; a CSP belongs in front of the site where its needs are known.
func setSecurityHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "SAMEORIGIN")
}

// cacheControlFor picks the Cache-Control of a site file from its name and
// media type.
func cacheControlFor(name, contentType string) string {
	if isFingerprinted(name) {
		return CacheFingerprinted
	}
	mediaType := baseMediaType(contentType)
	for _, prefix := range []string{"image/", "font/", "audio/", "video/"} {
		if strings.HasPrefix(mediaType, prefix) && mediaType != "image/svg+xml" {
			return CacheMedia
		}
	}
	return CacheDocument
}

// isFingerprinted reports whether a file name has a dot-separated segment of
// at least 32 hexadecimal digits, the way Hugo's fingerprint names assets
// (docweave.min.<sha256>.css).
func isFingerprinted(name string) bool {
	segments := strings.Split(path.Base(name), ".")
	if len(segments) < 3 { // name, hash and extension at least
		return false
	}
	for _, s := range segments[1 : len(segments)-1] {
		if len(s) >= 32 && isHex(s) {
			return true
		}
	}
	return false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// baseMediaType returns the lower-case media type without parameters.
func baseMediaType(contentType string) string {
	mediaType, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mediaType))
}
