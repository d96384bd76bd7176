package webhook

import (
	"bytes"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestParsePrefixedMAC(t *testing.T) {
	good := strings.Repeat("ab", 32)
	if mac, err := parsePrefixedMAC("sha256=" + good); err != nil || hex.EncodeToString(mac) != good {
		t.Fatalf("parsePrefixedMAC(good) = %x, %v", mac, err)
	}
	if _, err := parsePrefixedMAC("SHA256=" + strings.ToUpper(good)); err != nil {
		t.Errorf("upper-case form refused: %v", err)
	}
	for _, bad := range []string{"", "sha256=", "sha256", "sha1=" + good, good, "sha256=" + good[:62],
		"sha256=" + good + "00", "sha256=" + strings.Repeat("g", 64), "sha256= " + good[1:], "sha512=" + good} {
		if _, err := parsePrefixedMAC(bad); !errors.Is(err, errSignatureMalformed) {
			t.Errorf("parsePrefixedMAC(%q) error %v, want malformed", bad, err)
		}
	}
}

func TestCheckHMACHeader(t *testing.T) {
	body := []byte(`{"ref":"refs/heads/main"}`)
	sig := "sha256=" + hexHMAC("k", body)
	h := http.Header{}
	h.Set(HeaderGitHubSignature, sig)
	if err := checkHMACHeader(h, HeaderGitHubSignature, true, "k", body); err != nil {
		t.Fatalf("valid signature refused: %v", err)
	}
	if err := checkHMACHeader(h, HeaderGitHubSignature, true, "other", body); !errors.Is(err, errSignatureMismatch) {
		t.Errorf("wrong secret: %v, want mismatch", err)
	}
	if err := checkHMACHeader(h, HeaderGitHubSignature, true, "k", append(body, ' ')); !errors.Is(err, errSignatureMismatch) {
		t.Errorf("changed body: %v, want mismatch", err)
	}
	if err := checkHMACHeader(http.Header{}, HeaderGitHubSignature, true, "k", body); !errors.Is(err, errSignatureMissing) {
		t.Errorf("no header: %v, want missing", err)
	}
	h.Add(HeaderGitHubSignature, sig)
	if err := checkHMACHeader(h, HeaderGitHubSignature, true, "k", body); !errors.Is(err, errSignatureRepeated) {
		t.Errorf("two headers: %v, want repeated", err)
	}
}

func TestEqualTokens(t *testing.T) {
	if !equalTokens("tok", "tok") {
		t.Error("equal tokens differ")
	}
	for _, other := range []string{"", "to", "tok ", "Tok", "tol"} {
		if equalTokens(other, "tok") {
			t.Errorf("equalTokens(%q, tok) = true", other)
		}
	}
}

func TestRefusalMessagesNameTheHeaderNotTheSecret(t *testing.T) {
	for _, err := range []error{errSignatureMissing, errSignatureMalformed, errSignatureRepeated, errSignatureMismatch} {
		rep := signatureRefusal(HeaderGitHubSignature, "sha256=<hex>", err)
		msg := rep.body.(errorBody).Message
		if rep.status != http.StatusUnauthorized || !strings.Contains(msg, HeaderGitHubSignature) {
			t.Errorf("%v: %d %q", err, rep.status, msg)
		}
	}
	rep := unconfiguredRefusal(SourceGitHub, "daemon.webhooks.github_secret")
	if rep.status != http.StatusUnauthorized || rep.code != CodeInvalidSignature {
		t.Errorf("unconfigured: %d %s", rep.status, rep.code)
	}
}

// FuzzParsePrefixedMAC checks that any header value either parses into a
// 32-byte MAC whose canonical form is the input (up to case), or is
// refused as malformed — never a panic, never another error.
func FuzzParsePrefixedMAC(f *testing.F) {
	for _, seed := range []string{"", "sha256=", "sha256=" + strings.Repeat("0", 64), "SHA256=" + strings.Repeat("F", 64),
		"sha1=" + strings.Repeat("a", 40), "sha256=" + strings.Repeat("é", 32), "sha256=\x00"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, value string) {
		mac, err := parsePrefixedMAC(value)
		if err != nil {
			if !errors.Is(err, errSignatureMalformed) || mac != nil {
				t.Fatalf("parsePrefixedMAC(%q) = %x, %v", value, mac, err)
			}
			return
		}
		if len(mac) != 32 || !strings.EqualFold(value, "sha256="+hex.EncodeToString(mac)) {
			t.Fatalf("parsePrefixedMAC(%q) = %x, not the value it was given", value, mac)
		}
	})
}

// FuzzSignatureVerification checks, for any secret and body, that the
// body's own signature verifies and that changing one byte of the body or
// one digit of the signature makes it fail.
func FuzzSignatureVerification(f *testing.F) {
	f.Add("secret", []byte(`{"ref":"refs/heads/main"}`), uint(3))
	f.Add("", []byte{}, uint(0))
	f.Add("k", []byte{0xff, 0x00}, uint(100))
	f.Fuzz(func(t *testing.T, secret string, body []byte, pos uint) {
		h := http.Header{}
		sig := "sha256=" + hexHMAC(secret, body)
		h.Set(HeaderGenericSignature, sig)
		if err := checkHMACHeader(h, HeaderGenericSignature, true, secret, body); err != nil {
			t.Fatalf("own signature refused: %v", err)
		}
		if len(body) > 0 {
			changed := bytes.Clone(body)
			changed[pos%uint(len(changed))] ^= 0x01
			if err := checkHMACHeader(h, HeaderGenericSignature, true, secret, changed); !errors.Is(err, errSignatureMismatch) {
				t.Fatalf("changed body: %v, want mismatch", err)
			}
		}
		digits := []byte(sig)
		i := len("sha256=") + int(pos%64)
		if digits[i] == '0' {
			digits[i] = '1'
		} else {
			digits[i] = '0'
		}
		h.Set(HeaderGenericSignature, string(digits))
		if err := checkHMACHeader(h, HeaderGenericSignature, true, secret, body); !errors.Is(err, errSignatureMismatch) {
			t.Fatalf("changed signature: %v, want mismatch", err)
		}
	})
}
