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

// LevelFunc chooses the level of a request's access-log line.
type LevelFunc func(path string, status int) zerolog.Level

// DefaultLevel logs requests at debug (a busy site would flood info), and
// server errors other than 503 at error.
func DefaultLevel(_ string, status int) zerolog.Level {
	if status >= 500 && status != http.StatusServiceUnavailable {
		return zerolog.ErrorLevel
	}
	return zerolog.DebugLevel
}

// AccessLog logs every request when it ends with the stable fields method,
// path, status and duration_ms, at the level level chooses; the logger
// carries the server field. The query string and headers are never
// logged: they could carry secrets.
func AccessLog(log zerolog.Logger, level LevelFunc, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := Record(w)
		next.ServeHTTP(rec, r)
		status := rec.Status()
		log.WithLevel(level(r.URL.Path, status)).
			Str("method", r.Method).
			Str("path", r.URL.Path).
			Int("status", status).
			Float64(logging.FieldDuration, float64(time.Since(start).Microseconds())/1000).
			Msg("request")
	})
}

// WithAccessLog is AccessLog at DefaultLevel for the server named server.
func WithAccessLog(server string, log zerolog.Logger, next http.Handler) http.Handler {
	return AccessLog(log.With().Str(logging.FieldServer, server).Logger(), DefaultLevel, next)
}
