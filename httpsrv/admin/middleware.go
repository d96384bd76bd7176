package admin

import (
	"fmt"
	"net/http"
	"time"

	"github.com/rs/zerolog"
)

// logRequests writes one structured line per request with the stable
// fields server, method, path, status and duration_ms (see requestLogLevel
// for the levels). The query string and headers are never logged: they
// could carry secrets.
func logRequests(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		status := rec.statusCode()
		log.WithLevel(requestLogLevel(r.URL.Path, status)).
			Str("method", r.Method).
			Str("path", r.URL.Path).
			Int("status", status).
			Float64("duration_ms", float64(time.Since(start).Microseconds())/1000).
			Msg("request")
	})
}

// requestLogLevel keeps frequent probe and scrape traffic (/health, /ready,
// /metrics) at debug level while it succeeds and at info when it does not
// (a 503 from /ready before the first render is expected, not an error);
// elsewhere a 503 (shutting down) is a warning and other 5xx are errors.
func requestLogLevel(path string, status int) zerolog.Level {
	switch {
	case isProbePath(path) && status < 400:
		return zerolog.DebugLevel
	case isProbePath(path):
		return zerolog.InfoLevel
	case status == http.StatusServiceUnavailable:
		return zerolog.WarnLevel
	case status >= 500:
		return zerolog.ErrorLevel
	default:
		return zerolog.InfoLevel
	}
}

func isProbePath(path string) bool {
	return path == "/health" || path == "/ready" || path == "/metrics"
}

// recoverPanics turns a panicking handler (a Backend bug) into a 500 and a
// log line, instead of a dropped connection and a stack trace on stderr.
func recoverPanics(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec, _ := w.(*statusRecorder)
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler { // the sentinel net/http uses to abort a response
				panic(p)
			}
			log.Error().Str("method", r.Method).Str("path", r.URL.Path).
				Str("panic", fmt.Sprint(p)).Msg("handler panicked")
			if rec == nil || !rec.wroteHeader {
				writeError(w, http.StatusInternalServerError, codeInternal, "internal error; see the daemon log")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status code written through it.
type statusRecorder struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wroteHeader {
		s.status = code
		s.wroteHeader = true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if !s.wroteHeader {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) statusCode() int {
	if !s.wroteHeader {
		return http.StatusOK
	}
	return s.status
}

// promLogger routes promhttp's error log (a failed collector during a
// scrape) into the structured log.
type promLogger struct{ log zerolog.Logger }

// Println implements promhttp.Logger.
func (p promLogger) Println(v ...any) {
	p.log.Warn().Str("path", "/metrics").Str("error", fmt.Sprint(v...)).Msg("metrics scrape problem")
}
