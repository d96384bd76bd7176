package docs

import (
	"encoding/json"
	"net/http"
)

// Error codes of the JSON error bodies this server sends. Clients branch on
// the code; the message is for people and may change.
const (
	CodeMethodNotAllowed = "method_not_allowed"
	CodeNotFound         = "not_found"
	CodeNotReady         = "not_ready"
	CodeInternal         = "internal_error"
)

// errorBody is the JSON shape shared by every docweave HTTP server.
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeError sends a JSON error body. Error answers describe one request,
// not a resource, so nothing may store them.
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

// writeJSON sends a small JSON status document such as {"status":"ok"}.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, CodeInternal, "status document could not be encoded")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
