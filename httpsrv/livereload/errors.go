package livereload

import (
	"encoding/json"
	"net/http"
)

// Error codes of the JSON error bodies this server sends.
const (
	CodeMethodNotAllowed = "method_not_allowed"
	CodeNotFound         = "not_found"
	CodeShuttingDown     = "shutting_down"
)

// errorBody is the JSON shape shared by every docweave HTTP server.
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeError sends a JSON error body that nothing may store.
func writeError(w http.ResponseWriter, status int, code, message string) {
	body, err := json.Marshal(errorBody{Code: code, Message: message})
	if err != nil { // two strings always encode; keep a valid body anyway
		body = []byte(`{"code":"internal_error","message":"error body could not be encoded"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
