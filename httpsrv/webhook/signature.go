package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Signature headers.
const (
	HeaderGitHubSignature  = "X-Hub-Signature-256"
	HeaderGitLabToken      = "X-Gitlab-Token"
	HeaderForgejoSignature = "X-Forgejo-Signature"
	HeaderGiteaSignature   = "X-Gitea-Signature"
	HeaderGenericSignature = "X-Docweave-Signature-256"
)

// sha256Prefix starts the value of the "sha256=<hex>" signature headers.
const sha256Prefix = "sha256="

// Reasons a signature is refused. They say what was wrong with the header,
// never what the right value would have been.
var (
	errSignatureMissing   = errors.New("is missing")
	errSignatureMalformed = errors.New("malformed")
	errSignatureRepeated  = errors.New("is sent more than once")
	errSignatureMismatch  = errors.New("does not match the body signed with the configured secret")
)

// parseHexMAC decodes a bare hex HMAC-SHA256 (64 hex digits, either case).
func parseHexMAC(value string) ([]byte, error) {
	if len(value) != 2*sha256.Size {
		return nil, errSignatureMalformed
	}
	mac, err := hex.DecodeString(value)
	if err != nil {
		return nil, errSignatureMalformed
	}
	return mac, nil
}

// parsePrefixedMAC decodes "sha256=<64 hex digits>"; the algorithm name is
// accepted in either case, anything else (sha1=, no prefix) is malformed.
func parsePrefixedMAC(value string) ([]byte, error) {
	if len(value) < len(sha256Prefix) || !strings.EqualFold(value[:len(sha256Prefix)], sha256Prefix) {
		return nil, errSignatureMalformed
	}
	return parseHexMAC(value[len(sha256Prefix):])
}

// signBody returns the HMAC-SHA256 of body under secret.
func signBody(secret string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return m.Sum(nil)
}

// validMAC reports whether mac is the HMAC-SHA256 of body under secret, in
// time that does not depend on where the two differ.
func validMAC(secret string, body, mac []byte) bool {
	return hmac.Equal(signBody(secret, body), mac)
}

// equalTokens compares two shared tokens in constant time. Both are hashed
// first so that not even their lengths leak through timing.
func equalTokens(got, want string) bool {
	g := sha256.Sum256([]byte(got))
	w := sha256.Sum256([]byte(want))
	return hmac.Equal(g[:], w[:])
}

// singleHeader returns the one value of header name, refusing a repeated
// header so two signatures cannot be played against each other.
func singleHeader(h http.Header, name string) (string, error) {
	values := h.Values(name)
	switch len(values) {
	case 0:
		return "", errSignatureMissing
	case 1:
		if values[0] == "" {
			return "", errSignatureMissing
		}
		return values[0], nil
	default:
		return "", errSignatureRepeated
	}
}

// checkHMACHeader verifies a signature header: prefixed ("sha256=<hex>")
// or bare hex, against the HMAC of body under secret.
func checkHMACHeader(h http.Header, name string, prefixed bool, secret string, body []byte) error {
	value, err := singleHeader(h, name)
	if err != nil {
		return err
	}
	parse := parseHexMAC
	if prefixed {
		parse = parsePrefixedMAC
	}
	mac, err := parse(value)
	if err != nil {
		return err
	}
	if !validMAC(secret, body, mac) {
		return errSignatureMismatch
	}
	return nil
}

// signatureRefusal is the 401 answer for a request that failed
// authentication. The message names the header and, when the server side
// is at fault, the configuration key; never a secret or a signature.
func signatureRefusal(header, format string, err error) reply {
	var msg string
	switch {
	case errors.Is(err, errSignatureMalformed):
		msg = fmt.Sprintf("header %s is malformed; expected %s", header, format)
	default:
		msg = fmt.Sprintf("header %s %s", header, err)
	}
	return errorReply(http.StatusUnauthorized, CodeInvalidSignature, msg)
}

// unconfiguredRefusal is the 401 answer of an endpoint whose secret is not
// set: an unsigned webhook must never trigger a build.
func unconfiguredRefusal(source, key string) reply {
	return errorReply(http.StatusUnauthorized, CodeInvalidSignature,
		fmt.Sprintf("%s webhooks are disabled: %s is not set, so no request can be verified", source, key))
}
