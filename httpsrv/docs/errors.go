package docs

import (
	"net/http"

	"github.com/docweave/docweave/httpsrv"
)

// Error codes of the JSON error bodies this server sends. Clients branch on
// the code; the message is for people and may change.
const (
	CodeMethodNotAllowed = "method_not_allowed"
	CodeNotFound         = "not_found"
	CodeNotReady         = "not_ready"
	CodeInternal         = "internal_error"
)

// writeError sends a JSON error body (httpsrv.ErrorBody).
func writeError(w http.ResponseWriter, status int, code, message string) {
	httpsrv.WriteError(w, status, code, message)
}

// writeJSON sends a small JSON status document such as {"status":"ok"}.
func writeJSON(w http.ResponseWriter, status int, v any) {
	httpsrv.WriteJSON(w, status, v)
}
