package ingress

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/httpsrv"
	"github.com/docweave/docweave/ingress"
	"github.com/docweave/docweave/logging"
)

// Listing is what the handlers read the served snapshot from;
// *ingress.Store implements it. Current returns nil until the source has
// synced.
type Listing interface {
	Current() *ingress.Snapshot
}

// DefaultCacheControl is sent with the listing unless the deployment sets
// another policy: clients must revalidate, and nothing stores the list.
const DefaultCacheControl = "no-store"

// Realm is the realm of the Bearer challenge.
const Realm = "docweave-ingress"

// Options configure the ingress HTTP handler.
type Options struct {
	// Listing is read on every request; required.
	Listing Listing
	// Keys are the active API keys; required.
	Keys *KeySet
	// CacheControl is sent with 200 and 304 listing responses;
	// DefaultCacheControl when empty.
	CacheControl string
	// Registry receives the HTTP metrics and is served at /metrics;
	// required, so the process decides what else it exports.
	Registry *prometheus.Registry
	// Logger receives refused requests (sampled) and internal failures.
	Logger zerolog.Logger
}

// NewHandler returns the handler of the ingress server:
//
//	GET /v1/ingresses  the listing (bearer key required)
//	GET /openapi.json  the OpenAPI 3.1 description (no key)
//	GET /health        liveness: 200 while the process serves
//	GET /ready         readiness: 200 once the source has synced, else 503
//	GET /metrics       Prometheus metrics (no key; keep the port internal)
//
// HEAD is accepted wherever GET is. Other methods get 405 and unknown
// paths 404, both with an Error body.
func NewHandler(opts Options) (http.Handler, error) {
	if opts.Listing == nil {
		return nil, errors.New("ingress handler: no listing")
	}
	if opts.Keys == nil {
		return nil, errors.New("ingress handler: no key set")
	}
	if opts.Registry == nil {
		return nil, errors.New("ingress handler: no metrics registry")
	}
	cacheControl := opts.CacheControl
	if cacheControl == "" {
		cacheControl = DefaultCacheControl
	}
	if strings.ContainsAny(cacheControl, "\r\n") {
		return nil, errors.New("ingress cache_control: must be a single header line (no line breaks)")
	}
	metrics, err := newHTTPMetrics(opts.Registry)
	if err != nil {
		return nil, err
	}
	spec, err := BuildOpenAPI()
	if err != nil {
		return nil, err
	}
	logger := opts.Logger.With().Str(logging.FieldServer, "ingress").Logger()
	refusals := logger.Sample(&zerolog.BurstSampler{Burst: 10, Period: time.Second})

	list := &listHandler{
		listing:      opts.Listing,
		keys:         opts.Keys,
		cacheControl: []string{cacheControl},
		unauthorized: func(w http.ResponseWriter, r *http.Request, p authProblem) {
			metrics.authFailures.WithLabelValues(p.String()).Inc()
			refusals.Warn().Str("reason", p.String()).Str("remote", r.RemoteAddr).
				Str("user_agent", r.UserAgent()).Msg("ingress request refused")
			writeUnauthorized(w, p)
		},
	}

	mux := http.NewServeMux()
	route := func(path, name string, h http.Handler) {
		wrapped := metrics.instrument(name, recoverInternal(logger, h))
		mux.Handle("GET "+path, wrapped)
		mux.Handle(path, metrics.instrument(name, http.HandlerFunc(methodNotAllowed)))
	}
	route(PathIngresses, "list", list)
	route(PathOpenAPI, "openapi", staticJSON(spec, "no-cache"))
	route("/health", "health", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeText(w, http.StatusOK, "ok")
	}))
	route("/ready", "ready", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if opts.Listing.Current() == nil {
			writeText(w, http.StatusServiceUnavailable, "not ready: waiting for the ingress source to sync")
			return
		}
		writeText(w, http.StatusOK, "ready")
	}))
	route("/metrics", "metrics", promhttp.HandlerFor(opts.Registry, promhttp.HandlerOpts{Registry: opts.Registry}))
	mux.Handle("/", metrics.instrument("other", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no endpoint %s; see %s", r.URL.Path, PathOpenAPI))
	})))
	return mux, nil
}

// writeUnauthorized sends 401 with the Bearer challenge of RFC 6750 §3.
func writeUnauthorized(w http.ResponseWriter, p authProblem) {
	challenge := `Bearer realm="` + Realm + `"`
	var code ErrorCode
	var msg string
	switch p {
	case authMissing:
		code, msg = CodeMissingCredentials, "authentication required: send Authorization: Bearer <API key>"
	case authMalformed:
		challenge += `, error="invalid_request"`
		code, msg = CodeMalformedCredentials, `malformed Authorization header: expected exactly one header of the form "Bearer <API key>"`
	default:
		challenge += `, error="invalid_token"`
		code, msg = CodeInvalidCredentials, "the bearer token is not an active API key"
	}
	w.Header().Set("WWW-Authenticate", challenge)
	writeError(w, http.StatusUnauthorized, code, msg)
}

// methodNotAllowed answers a known path requested with a method other than
// GET or HEAD.
func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", "GET, HEAD")
	writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed, r.Method+" is not allowed here; use GET")
}

// recoverInternal turns a panic into a 500 with an Error body (when no
// response has started) and an error log with the stack, instead of a
// dropped connection (httpsrv.RecoverPanics).
func recoverInternal(logger zerolog.Logger, h http.Handler) http.Handler {
	return httpsrv.RecoverPanics(logger, func(w http.ResponseWriter) {
		writeError(w, http.StatusInternalServerError, CodeInternal, "internal error; the server log has details")
	}, h)
}

// staticJSON serves a fixed JSON document with a strong ETag, so clients
// can cache it and revalidate.
func staticJSON(body []byte, cacheControl string) http.Handler {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Etag", etag)
		h.Set("Cache-Control", cacheControl)
		if match, _ := ifNoneMatch(r.Header["If-None-Match"], etag); match {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		h.Set("Content-Type", "application/json")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
}

// writeText sends a short plain-text answer for probes and people.
func writeText(w http.ResponseWriter, status int, text string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintln(w, text)
}
