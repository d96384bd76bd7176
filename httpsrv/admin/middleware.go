package admin

import (
	"fmt"
	"net/http"

	"github.com/rs/zerolog"
)

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

// promLogger routes promhttp's error log (a failed collector during a
// scrape) into the structured log.
type promLogger struct{ log zerolog.Logger }

// Println implements promhttp.Logger.
func (p promLogger) Println(v ...any) {
	p.log.Warn().Str("path", "/metrics").Str("error", fmt.Sprint(v...)).Msg("metrics scrape problem")
}
