package ingress

import (
	"strings"
	"testing"
)

func TestBearerToken(t *testing.T) {
	cases := []struct {
		lines   []string
		token   string
		problem authProblem
	}{
		{nil, "", authMissing},
		{[]string{""}, "", authMissing},
		{[]string{"   "}, "", authMissing},
		{[]string{"Bearer abc"}, "abc", authOK},
		{[]string{"bEaReR abc"}, "abc", authOK},
		{[]string{"Bearer    abc"}, "abc", authOK},
		{[]string{"Bearer a-b.c_d~e+f/g=="}, "a-b.c_d~e+f/g==", authOK},
		{[]string{"Bearer"}, "", authMalformed},
		{[]string{"Bearer "}, "", authMalformed},
		{[]string{"Bearerabc"}, "", authMalformed},
		{[]string{"Bearer\tabc"}, "", authMalformed},
		{[]string{"Basic YWxhZGRpbjpvcGVuc2VzYW1l"}, "", authMalformed},
		{[]string{"Bearer a b"}, "", authMalformed},
		{[]string{"Bearer a=b"}, "", authMalformed},
		{[]string{"Bearer ="}, "", authMalformed},
		{[]string{"Bearer a", "Bearer b"}, "", authMalformed},
	}
	for _, tc := range cases {
		tok, p := bearerToken(tc.lines)
		if tok != tc.token || p != tc.problem {
			t.Errorf("bearerToken(%q) = %q, %s; want %q, %s", tc.lines, tok, p, tc.token, tc.problem)
		}
	}
}

func TestKeySetVerify(t *testing.T) {
	ks, err := NewKeySet(KeysFromList("k", []string{"alpha", "beta"}))
	if err != nil {
		t.Fatal(err)
	}
	for tok, want := range map[string]bool{"alpha": true, "beta": true, "gamma": false, "alph": false, "alphaa": false, "": false, "ALPHA": false} {
		if got := ks.Verify(tok); got != want {
			t.Errorf("Verify(%q) = %v, want %v", tok, got, want)
		}
	}
	if ks.Len() != 2 {
		t.Fatalf("Len = %d", ks.Len())
	}
	if err := ks.Replace(nil); err != nil || ks.Verify("alpha") || ks.Len() != 0 {
		t.Fatal("an empty set must refuse every key")
	}
	var zero KeySet
	if zero.Verify("alpha") || zero.Len() != 0 {
		t.Fatal("a zero KeySet must refuse every key")
	}
}

func TestKeySetRejectsUnusableKeysWithoutPrintingThem(t *testing.T) {
	for _, bad := range []string{"", "has space", "ünïcode", "tab\there", "a=b"} {
		_, err := NewKeySet([]Key{{Origin: "ingress.api_keys[3]", Value: bad}})
		if err == nil {
			t.Errorf("key %q accepted", bad)
			continue
		}
		if !strings.Contains(err.Error(), "ingress.api_keys[3]") {
			t.Errorf("error %q does not name the key's origin", err)
		}
		if bad != "" && strings.Contains(err.Error(), bad) {
			t.Errorf("error %q contains the key", err)
		}
	}
}

func TestKeySetVerifyDoesNotAllocate(t *testing.T) {
	ks, _ := NewKeySet(KeysFromList("k", []string{"alpha", "beta", "gamma"}))
	if n := testing.AllocsPerRun(100, func() { ks.Verify("beta") }); n != 0 {
		t.Fatalf("%v allocations per Verify, want 0", n)
	}
}

// FuzzBearerToken checks that the Authorization parser never panics, that
// whatever it accepts is a token68 that the header really ends with, and
// that a well-formed "Bearer <token68>" header is always accepted.
func FuzzBearerToken(f *testing.F) {
	for _, seed := range []string{"Bearer abc", "bearer  a=", "Basic x", "Bearer", "", "Bearer a b", "Bearer \x00"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		tok, p := bearerToken([]string{header})
		if p == authOK {
			if !isToken68(tok) || !strings.HasSuffix(header, tok) || !strings.EqualFold(header[:7], "bearer ") {
				t.Fatalf("accepted %q from %q", tok, header)
			}
		}
		if isToken68(header) {
			got, p := bearerToken([]string{"Bearer " + header})
			if p != authOK || got != header {
				t.Fatalf("Bearer %q: %q, %s", header, got, p)
			}
		}
	})
}
