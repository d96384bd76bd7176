package webhook

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
)

// readBody reads the whole request body, at most limit bytes. A larger
// body (announced by Content-Length or found while reading) is refused with
// 413 before any of it is interpreted; ok is false when rep is the answer.
func readBody(r *http.Request, limit int64) (body []byte, rep reply, ok bool) {
	tooLarge := errorReply(http.StatusRequestEntityTooLarge, CodePayloadTooLarge,
		fmt.Sprintf("request body exceeds the limit of %d bytes (daemon.webhooks.max_body_bytes)", limit))
	if r.ContentLength > limit {
		return nil, tooLarge, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, errorReply(http.StatusBadRequest, CodeInvalidPayload, "request body could not be read: "+err.Error()), false
	}
	if int64(len(body)) > limit {
		return nil, tooLarge, false
	}
	return body, reply{}, true
}

// jsonPayload returns the JSON document of a signed forge request. GitHub
// and Forgejo/Gitea can be configured to send it form-encoded as the
// "payload" field; the signature covers the raw body either way, so this
// runs only after verification.
func jsonPayload(r *http.Request, body []byte) ([]byte, error) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "application/x-www-form-urlencoded" {
		return body, nil
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, fmt.Errorf("form-encoded body: %w", err)
	}
	payload := form.Get("payload")
	if payload == "" {
		return nil, fmt.Errorf(`form-encoded body has no "payload" field`)
	}
	return []byte(payload), nil
}
