package httpsrv

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/logging"
)

// ErrorBody is the JSON error shape every docweave HTTP server sends:
// clients branch on the code; the message is for people and may change.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// WriteJSON sends a small JSON document (a status, an error body). It is
// never stored by caches: such answers describe one request.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"code":"internal_error","message":"response body could not be encoded"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// WriteError sends an ErrorBody.
func WriteError(w http.ResponseWriter, status int, code, message string) {
	WriteJSON(w, status, ErrorBody{Code: code, Message: message})
}

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

// Unwrap lets http.ResponseController reach the connection (Flush and
// SetWriteDeadline, which event streams need).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// WithAccessLog logs every request when it ends with the stable fields
// server, method, path, status and duration_ms: at debug (a busy site would
// flood info), and at error for server errors other than 503.
func WithAccessLog(server string, log zerolog.Logger, next http.Handler) http.Handler {
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
		ev.Str(logging.FieldServer, server).
			Str("method", r.Method).
			Str("path", r.URL.Path).
			Int("status", status).
			Float64(logging.FieldDuration, float64(time.Since(start).Microseconds())/1000).
			Msg("request")
	})
}
