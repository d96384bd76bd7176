package admin

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/docweave/docweave/config"
)

// realm names the protection space in the Bearer challenge.
const realm = "docweave-admin"

// tokenCheck verifies bearer tokens against the configured one. Only the
// token's SHA-256 digest is kept and a presented token is hashed before a
// constant-time comparison, so neither the comparison's duration nor its
// early exit reveals the token or its length.
type tokenCheck struct {
	enabled bool
	digest  [sha256.Size]byte
}

func newTokenCheck(token string) tokenCheck {
	if token == "" {
		return tokenCheck{}
	}
	return tokenCheck{enabled: true, digest: sha256.Sum256([]byte(token))}
}

// authorize answers 401 and returns false when the request does not carry
// the token; with no token configured it always returns true.
func (c tokenCheck) authorize(w http.ResponseWriter, r *http.Request) bool {
	if !c.enabled {
		return true
	}
	token, problem := bearerToken(r.Header.Values("Authorization"))
	if problem == "" {
		sum := sha256.Sum256([]byte(token))
		if subtle.ConstantTimeCompare(sum[:], c.digest[:]) == 1 {
			return true
		}
		problem = codeInvalidCredentials
	}
	challenge := `Bearer realm="` + realm + `"`
	if problem != codeMissingCredentials {
		// RFC 6750 §3: a request that carried credentials learns why
		// they were refused; one that carried none only gets the challenge.
		challenge += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	writeError(w, http.StatusUnauthorized, problem, authMessages[problem])
	return false
}

var authMessages = map[string]string{
	codeMissingCredentials:   "this endpoint requires an Authorization: Bearer <admin token> header",
	codeMalformedCredentials: "the Authorization header must be exactly one \"Bearer <token>\"",
	codeInvalidCredentials:   "the bearer token is not the admin token",
}

// bearerToken extracts the token of the one "Authorization: Bearer <token>"
// field line. The scheme is case-insensitive (RFC 9110 §11.1); several
// Authorization lines are malformed. The second result is the error code,
// empty on success.
func bearerToken(lines []string) (string, string) {
	switch len(lines) {
	case 0:
		return "", codeMissingCredentials
	case 1:
	default:
		return "", codeMalformedCredentials
	}
	v := strings.TrimSpace(lines[0])
	if v == "" {
		return "", codeMissingCredentials
	}
	scheme, token, found := strings.Cut(v, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", codeMalformedCredentials
	}
	token = strings.TrimLeft(token, " ")
	if !isToken68(token) {
		return "", codeMalformedCredentials
	}
	return token, ""
}

// isToken68 checks RFC 9110's token68, the one definition configuration
// validation uses too, so a token that loads is a token this server
// accepts.
func isToken68(s string) bool { return config.IsToken68(s) }
