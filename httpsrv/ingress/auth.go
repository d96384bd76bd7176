package ingress

import (
	"crypto/sha256"
	"crypto/subtle"
	"strings"
	"sync/atomic"

	"github.com/docweave/docweave/config"
)

// authProblem says why a request is not authenticated. It decides the
// error code and the WWW-Authenticate error parameter, and it is a metric
// label, so it never carries anything the client sent.
type authProblem int

const (
	authOK authProblem = iota
	authMissing
	authMalformed
	authInvalid
)

func (p authProblem) String() string {
	switch p {
	case authOK:
		return "ok"
	case authMissing:
		return "missing"
	case authMalformed:
		return "malformed"
	default:
		return "invalid"
	}
}

// bearerToken extracts the token of "Authorization: Bearer <token>"
// (RFC 9110 §11.6.2, RFC 6750 §2.1): the scheme is case-insensitive, one or
// more spaces separate it from the token, the token is token68. Several
// Authorization lines are malformed. It allocates nothing.
func bearerToken(fieldLines []string) (string, authProblem) {
	switch len(fieldLines) {
	case 0:
		return "", authMissing
	case 1:
	default:
		return "", authMalformed
	}
	v := fieldLines[0]
	const scheme = "bearer"
	if len(v) < len(scheme)+2 || !strings.EqualFold(v[:len(scheme)], scheme) || v[len(scheme)] != ' ' {
		if strings.TrimSpace(v) == "" {
			return "", authMissing
		}
		return "", authMalformed
	}
	tok := strings.TrimLeft(v[len(scheme):], " ")
	if !isToken68(tok) {
		return "", authMalformed
	}
	return tok, authOK
}

// isToken68 checks RFC 9110's token68 with the definition configuration
// validation uses, so a key that loads is a key this server accepts.
func isToken68(s string) bool { return config.IsToken68(s) }

// KeySet holds the active API keys. Only SHA-256 digests are kept, and a
// presented token is hashed and compared with every digest in constant
// time, so neither the time taken nor the memory held reveals a key or its
// length. Several keys may be active at once, which is how keys are rotated:
// add the new one, move clients, remove the old one. Replace swaps the set
// atomically while requests are being checked.
type KeySet struct {
	digests atomic.Pointer[[][sha256.Size]byte]
}

// NewKeySet returns a set holding keys (see Replace).
func NewKeySet(keys []Key) (*KeySet, error) {
	ks := &KeySet{}
	if err := ks.Replace(keys); err != nil {
		return nil, err
	}
	return ks, nil
}

// Replace makes keys the active set. Every key must be a non-empty token68
// (what can follow "Bearer "); an error names the offending key by origin,
// never by value. An empty list is allowed and refuses every request.
func (ks *KeySet) Replace(keys []Key) error {
	digests := make([][sha256.Size]byte, 0, len(keys))
	for _, k := range keys {
		if err := k.validate(); err != nil {
			return err
		}
		digests = append(digests, sha256.Sum256([]byte(k.Value)))
	}
	ks.digests.Store(&digests)
	return nil
}

// Len is the number of active keys.
func (ks *KeySet) Len() int {
	if d := ks.digests.Load(); d != nil {
		return len(*d)
	}
	return 0
}

// Verify reports whether token is an active key.
func (ks *KeySet) Verify(token string) bool {
	d := ks.digests.Load()
	if d == nil {
		return false
	}
	sum := sha256.Sum256([]byte(token))
	found := 0
	for i := range *d {
		found |= subtle.ConstantTimeCompare(sum[:], (*d)[i][:])
	}
	return found == 1
}
