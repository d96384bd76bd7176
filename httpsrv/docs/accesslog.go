package docs

import (
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/logging"
)

// ServerName is the value of the "server" log field of this server.
const ServerName = "docs"

// statusRecorder remembers the status a handler wrote, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// withAccessLog logs every request with the stable fields server, method,
// path, status and duration_ms. Successful and client-error requests log at
// debug (a busy docs site would flood info); server errors at error.
func withAccessLog(log zerolog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		ev := log.Debug()
		if status >= 500 && status != http.StatusServiceUnavailable {
			ev = log.Error()
		}
		ev.Str(logging.FieldServer, ServerName).
			Str("method", r.Method).
			Str("path", r.URL.Path).
			Int("status", status).
			Float64(logging.FieldDuration, float64(time.Since(start).Microseconds())/1000).
			Msg("request")
	})
}
