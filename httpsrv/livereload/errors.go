package livereload

import (
	"net/http"

	"github.com/docweave/docweave/httpsrv"
)

// Error codes of the JSON error bodies this server sends.
const (
	CodeMethodNotAllowed = "method_not_allowed"
	CodeNotFound         = "not_found"
	CodeShuttingDown     = "shutting_down"
	CodeTooManyStreams   = "too_many_streams"
)

// writeError sends a JSON error body (httpsrv.ErrorBody).
func writeError(w http.ResponseWriter, status int, code, message string) {
	httpsrv.WriteError(w, status, code, message)
}
