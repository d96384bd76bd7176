package admin

import (
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/docweave/docweave/httpsrv"
)

// serverName is the value of the "server" log field.
const serverName = "admin"

// Methods allowed on each kind of endpoint. HEAD is accepted wherever GET
// is, as HTTP expects.
var (
	readMethods  = []string{http.MethodGet, http.MethodHead}
	writeMethods = []string{http.MethodPost}
)

// New returns the admin server's handler:
//
//	GET  /health             liveness: 200 {"status":"ok"} while the process serves
//	GET  /ready              200 while PublicDir exists, else 503 (checked per request)
//	GET  /metrics            Prometheus text format from Options.Metrics.Registry
//	POST /api/build/trigger  request a build; 202 with its ID and status URL
//	GET  /api/builds/{id}    a build's status and report; 404 when unknown
//	GET  /status             HTML page for people
//	POST /api/previews       request a preview; 202 with its id, URL and status URL
//	GET  /api/previews       every preview's status
//	GET, DELETE /api/previews/{id}  a preview's status; remove it
//
// With Options.Token set, /api/* and /status require the bearer token; the
// check comes before routing, so a client without it learns nothing about
// which endpoints exist. Unknown paths get 404, other methods 405 with
// Allow, both with a JSON Error body. New panics when Options.Validate
// fails: that is a wiring mistake in the daemon, caught at start-up.
func New(opts Options) http.Handler {
	if err := opts.Validate(); err != nil {
		panic(err)
	}
	log := opts.Log.With().Str("server", serverName).Logger()
	auth := newTokenCheck(opts.Token)
	metricsHandler := promhttp.HandlerFor(opts.Metrics.Registry, promhttp.HandlerOpts{
		// One failing collector must not hide every other series.
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      promLogger{log: log},
	})

	mux := http.NewServeMux()
	open := func(pattern string, methods []string, h http.HandlerFunc) {
		mux.Handle(pattern, allowMethods(methods, h))
	}
	protected := func(pattern string, methods []string, h http.HandlerFunc) {
		mux.Handle(pattern, requireToken(auth, allowMethods(methods, h)))
	}
	open("/health", readMethods, serveHealth)
	open("/ready", readMethods, readiness{dir: opts.PublicDir, log: log}.serve)
	open("/metrics", readMethods, metricsHandler.ServeHTTP)
	protected("/api/build/trigger", writeMethods, triggerHandler{backend: opts.Backend, log: log}.serve)
	protected("/api/builds/{id}", readMethods, buildHandler{backend: opts.Backend}.serve)
	protected("/status", readMethods, statusHandler{backend: opts.Backend, log: log}.serve)
	previews := previewsHandler{previews: opts.Previews, log: log}
	protected("/api/previews", []string{http.MethodGet, http.MethodHead, http.MethodPost}, previews.collection)
	protected("/api/previews/{id}", []string{http.MethodGet, http.MethodHead, http.MethodDelete}, previews.one)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") && !auth.authorize(w, r) {
			return
		}
		writeError(w, http.StatusNotFound, codeNotFound, "no such endpoint on the admin server")
	})
	internal := func(w http.ResponseWriter) {
		writeError(w, http.StatusInternalServerError, codeInternal, "internal error; see the daemon log")
	}
	return httpsrv.AccessLog(log, requestLogLevel, httpsrv.RecoverPanics(log, internal, mux))
}

// allowMethods answers 405 with an Allow header unless the request's
// method is one of methods.
func allowMethods(methods []string, next http.HandlerFunc) http.Handler {
	allow := strings.Join(methods, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, m := range methods {
			if r.Method == m {
				next(w, r)
				return
			}
		}
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, codeMethodNotAllowed, "this endpoint accepts "+allow)
	})
}

// requireToken runs next only for requests carrying the admin token.
func requireToken(auth tokenCheck, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth.authorize(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}
