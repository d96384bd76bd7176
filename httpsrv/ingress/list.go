package ingress

import (
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/docweave/docweave/ingress"
)

// Header values that never change, shared by every response. Each slice
// has length and capacity one, so no handler can append into another's.
var (
	jsonContentType    = []string{"application/json"}
	gzipEncoding       = []string{"gzip"}
	varyAcceptEncoding = []string{"Accept-Encoding"}
	noSniff            = []string{"nosniff"}
)

// prepared holds the header values of one snapshot, built once when the
// snapshot is first served, so that a revalidation allocates nothing but
// what net/http itself needs.
type prepared struct {
	snap                 *ingress.Snapshot
	etag, gzipETag       []string
	length, gzipLength   []string
	identityTag, gzipTag string
}

func prepare(s *ingress.Snapshot) *prepared {
	return &prepared{
		snap:        s,
		etag:        []string{s.ETag},
		gzipETag:    []string{s.GzipETag},
		length:      []string{strconv.Itoa(len(s.Body))},
		gzipLength:  []string{strconv.Itoa(len(s.GzipBody))},
		identityTag: s.ETag,
		gzipTag:     s.GzipETag,
	}
}

// listHandler serves GET /v1/ingresses.
type listHandler struct {
	listing      Listing
	keys         *KeySet
	cacheControl []string
	unauthorized func(http.ResponseWriter, *http.Request, authProblem)
	current      atomic.Pointer[prepared]
}

func (l *listHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Authentication comes first: without a key nothing about the listing,
	// not even whether a tag is current, is revealed.
	token, problem := bearerToken(r.Header["Authorization"])
	if problem == authOK && !l.keys.Verify(token) {
		problem = authInvalid
	}
	if problem != authOK {
		l.unauthorized(w, r, problem)
		return
	}

	snap := l.listing.Current()
	if snap == nil {
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, CodeNotReady, "the ingress source has not synced yet; retry shortly")
		return
	}
	p := l.current.Load()
	if p == nil || p.snap != snap {
		p = prepare(snap)
		l.current.Store(p)
	}

	gz := acceptsGzip(r.Header["Accept-Encoding"])
	etag, tag, length, body := p.etag, p.identityTag, p.length, snap.Body
	if gz {
		etag, tag, length, body = p.gzipETag, p.gzipTag, p.gzipLength, snap.GzipBody
	}
	h := w.Header()
	h["Etag"] = etag
	h["Cache-Control"] = l.cacheControl
	h["Vary"] = varyAcceptEncoding
	if match, _ := ifNoneMatch(r.Header["If-None-Match"], tag); match {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = length
	h["X-Content-Type-Options"] = noSniff
	if gz {
		h["Content-Encoding"] = gzipEncoding
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}
