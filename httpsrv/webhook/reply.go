package webhook

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// ErrorCode is the machine-readable reason of an error response. Scripts
// and alerts branch on it; the message next to it is for people and may
// change.
type ErrorCode string

// The error codes of the webhook server.
const (
	// CodeInvalidSignature (401): the endpoint has no secret configured, or
	// the signature or token is missing, malformed or wrong.
	CodeInvalidSignature ErrorCode = "invalid_signature"
	// CodePayloadTooLarge (413): the body exceeds max_body_bytes.
	CodePayloadTooLarge ErrorCode = "payload_too_large"
	// CodeInvalidPayload (400): a signed body that is not the JSON (or
	// form-encoded JSON) the endpoint expects.
	CodeInvalidPayload ErrorCode = "invalid_payload"
	// CodeMissingEvent (400): a signed forge request without its event
	// header.
	CodeMissingEvent ErrorCode = "missing_event"
	// CodeUnknownRepository (400): the generic endpoint named a repository
	// that is not configured.
	CodeUnknownRepository ErrorCode = "unknown_repository"
	// CodeTriggerFailed (503): the request was valid but the build could
	// not be queued; the sender may retry.
	CodeTriggerFailed ErrorCode = "trigger_failed"
	// CodeMethodNotAllowed (405): a known path with another method.
	CodeMethodNotAllowed ErrorCode = "method_not_allowed"
	// CodeNotFound (404): no such endpoint.
	CodeNotFound ErrorCode = "not_found"
	// CodeInternal (500): a bug; the server log has details.
	CodeInternal ErrorCode = "internal_error"
)

// Outcomes are the "outcome" field of the request log line.
const (
	outcomeAccepted = "accepted"
	outcomeIgnored  = "ignored"
	outcomePong     = "pong"
	outcomeRefused  = "refused"
	outcomeFailed   = "failed"
	outcomeHealth   = "health"
)

// errorBody is the body of every error response.
type errorBody struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

// statusBody answers /health ("ok") and pings ("pong").
type statusBody struct {
	Status string `json:"status"`
}

// acceptedBody answers a request that triggered a build.
type acceptedBody struct {
	Status       string   `json:"status"`
	BuildID      string   `json:"build_id"`
	Coalesced    bool     `json:"coalesced"`
	Repositories []string `json:"repositories"`
}

// ignoredBody answers a valid request that triggers nothing, saying why.
type ignoredBody struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// reply is one answer: what the client receives and what the log line
// records about it.
type reply struct {
	status int
	body   any
	allow  string // Allow header of a 405

	outcome string
	code    ErrorCode // error responses only
	reason  string    // ignored requests and refusals, for the log
	err     error     // an internal cause, logged and never sent

	source   string
	event    string
	delivery string
	trigger  *Trigger
	result   TriggerResult
}

// errorReply builds an error response; the message is sent to the client
// and logged, so it must never contain a secret.
func errorReply(status int, code ErrorCode, message string) reply {
	outcome := outcomeRefused
	if status >= 500 {
		outcome = outcomeFailed
	}
	return reply{status: status, body: errorBody{Code: code, Message: message},
		outcome: outcome, code: code, reason: message}
}

// ignored acknowledges a valid request that triggers nothing.
func ignored(reason string) reply {
	return reply{status: http.StatusAccepted, body: ignoredBody{Status: "ignored", Reason: reason},
		outcome: outcomeIgnored, reason: reason}
}

// pong answers a forge's ping.
func pong() reply {
	return reply{status: http.StatusOK, body: statusBody{Status: "pong"}, outcome: outcomePong}
}

// accepted answers a request that queued (or joined) a build.
func accepted(t Trigger, res TriggerResult) reply {
	return reply{status: http.StatusAccepted, outcome: outcomeAccepted, trigger: &t, result: res,
		body: acceptedBody{Status: "accepted", BuildID: res.BuildID, Coalesced: res.Coalesced, Repositories: t.Repositories}}
}

// internalError answers a bug with 500 and keeps the cause for the log.
func internalError(err error) reply {
	rep := errorReply(http.StatusInternalServerError, CodeInternal, "internal error; the server log has details")
	rep.err = err
	return rep
}

// panicError carries a recovered panic value as an error for the log.
type panicError struct{ value any }

func (p panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// write sends the reply as JSON. Answers describe one delivery, so they
// are never cached.
func (rep reply) write(w http.ResponseWriter, r *http.Request) {
	body, err := json.Marshal(rep.body)
	if err != nil { // only plain strings, bools and slices: cannot happen
		rep.status = http.StatusInternalServerError
		body = []byte(`{"code":"internal_error","message":"response could not be encoded"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if rep.allow != "" {
		h.Set("Allow", rep.allow)
	}
	if rep.status == http.StatusRequestEntityTooLarge {
		// The rest of an oversized body is not read; closing the
		// connection keeps the server from draining it.
		h.Set("Connection", "close")
	}
	w.WriteHeader(rep.status)
	if r.Method != http.MethodHead {
		w.Write(append(body, '\n'))
	}
}
