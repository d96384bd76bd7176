package admin

import (
	"encoding/json"
	"net/http"
)

// Error codes of the admin server's JSON error bodies. Clients and scripts
// branch on the code, which never changes; the message is for people.
const (
	codeMissingCredentials   = "missing_credentials"    // 401
	codeMalformedCredentials = "malformed_credentials"  // 401
	codeInvalidCredentials   = "invalid_credentials"    // 401
	codeNotFound             = "not_found"              // 404: no such endpoint
	codeBuildNotFound        = "build_not_found"        // 404: no such build ID
	codeMethodNotAllowed     = "method_not_allowed"     // 405
	codeInvalidRequest       = "invalid_request"        // 400: body not understood
	codeUnknownRepository    = "unknown_repository"     // 400
	codeBodyTooLarge         = "body_too_large"         // 413
	codeUnsupportedMediaType = "unsupported_media_type" // 415
	codeNotReady             = "not_ready"              // 503: no rendered site
	codeNotAccepting         = "not_accepting_triggers" // 503: shutting down
	codeInternal             = "internal_error"         // 500
)

// Error is the body of every error response.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeError sends an Error body.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, Error{Code: code, Message: message})
}

// writeJSON sends v as JSON. Admin answers describe the daemon at one
// moment, so nothing may store them.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body, _ = json.Marshal(Error{Code: codeInternal, Message: "the response could not be encoded"})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
