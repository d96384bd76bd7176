package ingress

import (
	"net/http"

	"github.com/docweave/docweave/httpsrv"
)

// ErrorCode is the machine-readable reason of an error response. Clients
// branch on the code; the message is for people and may change.
type ErrorCode string

// The error codes this service sends.
const (
	// CodeMissingCredentials: no Authorization header.
	CodeMissingCredentials ErrorCode = "missing_credentials"
	// CodeMalformedCredentials: an Authorization header that is not
	// "Bearer <token>".
	CodeMalformedCredentials ErrorCode = "malformed_credentials"
	// CodeInvalidCredentials: a well-formed bearer token that is not an
	// active API key.
	CodeInvalidCredentials ErrorCode = "invalid_credentials"
	// CodeNotReady: the source has not produced a first listing yet.
	CodeNotReady ErrorCode = "not_ready"
	// CodeInternal: a failure inside the service.
	CodeInternal ErrorCode = "internal_error"
	// CodeNotFound: no such endpoint.
	CodeNotFound ErrorCode = "not_found"
	// CodeMethodNotAllowed: the endpoint exists but not for this method.
	CodeMethodNotAllowed ErrorCode = "method_not_allowed"
)

// EnumValues lists the codes for the generated schema.
func (ErrorCode) EnumValues() []string {
	return []string{
		string(CodeMissingCredentials), string(CodeMalformedCredentials), string(CodeInvalidCredentials),
		string(CodeNotReady), string(CodeInternal), string(CodeNotFound), string(CodeMethodNotAllowed),
	}
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (ErrorCode) SchemaDescription() string {
	return "Machine-readable reason: missing_credentials, malformed_credentials and invalid_credentials (401), " +
		"internal_error (500), not_ready (503), not_found (404), method_not_allowed (405)."
}

// Error is the body of every error response (401, 404, 405, 500, 503).
type Error struct {
	Code    ErrorCode `json:"code" doc:"Machine-readable reason; stable across releases."`
	Message string    `json:"message" doc:"Human-readable explanation; never contains credentials."`
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (Error) SchemaDescription() string {
	return "Body of every error response."
}

// writeError sends an Error body. Error responses are never cached: they
// describe one request, not the resource.
func writeError(w http.ResponseWriter, status int, code ErrorCode, message string) {
	httpsrv.WriteJSON(w, status, Error{Code: code, Message: message})
}
