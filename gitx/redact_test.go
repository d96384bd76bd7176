package gitx

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://github.com/org/docs.git", "https://github.com/org/docs.git"},
		{"https://alice:s3cret@git.example.com/org/docs.git", "https://alice:REDACTED@git.example.com/org/docs.git"},
		{"https://ghp_abc123@github.com/org/docs.git", "https://REDACTED@github.com/org/docs.git"},
		{"http://x-access-token:tok@127.0.0.1:8080/a.git", "http://x-access-token:REDACTED@127.0.0.1:8080/a.git"},
		{"https://host/a.git?private_token=abc&x=1", "https://host/a.git?private_token=REDACTED&x=1"},
		{"https://host/a.git/info/refs?service=git-upload-pack", "https://host/a.git/info/refs?service=git-upload-pack"},
		{"https://host/a?X-Amz-Signature=abc&access_token=def", "https://host/a?X-Amz-Signature=REDACTED&access_token=REDACTED"},
		{"ssh://git@github.com/org/docs.git", "ssh://git@github.com/org/docs.git"},
		{"ssh://git:pw@host/docs.git", "ssh://git:REDACTED@host/docs.git"},
		{"git@github.com:org/docs.git", "git@github.com:org/docs.git"},
		{"file:///srv/git/docs.git", "file:///srv/git/docs.git"},
		{"/srv/git/docs", "/srv/git/docs"},
	}
	for _, c := range cases {
		if got := RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRedactURLUnparsableStillHidesUserinfo(t *testing.T) {
	got := RedactURL("https://user:p%zz@host/x")
	if strings.Contains(got, "p%zz") || !strings.Contains(got, "REDACTED@host") {
		t.Fatalf("unparsable URL not redacted: %q", got)
	}
}

func TestRedactTextHidesSecretsAndURLCredentials(t *testing.T) {
	msg := `Get "https://bob:hunter2@forge.test/a.git/info/refs": token tok-777 refused`
	got := redactText(msg, "tok-777", "")
	for _, secret := range []string{"hunter2", "tok-777"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q still contains %q", got, secret)
		}
	}
	if !strings.Contains(got, "https://bob:REDACTED@forge.test/a.git/info/refs") {
		t.Errorf("URL not redacted in place: %q", got)
	}
}

func TestRedactTextLeavesTinyValuesAlone(t *testing.T) {
	if got := redactText("auth.type token needs https", "t"); got != "auth.type token needs https" {
		t.Fatalf("a one-letter secret shredded the message: %q", got)
	}
}

// Issue 16: a server that echoed "Authorization: Basic …" in its error
// text leaked the credentials in base64, which the literal replacement
// did not catch.
func TestRedactTextHidesBase64AndPercentEncodedSecrets(t *testing.T) {
	const user, pass = "x-access-token", "ghp_S3cr3t/t0ken+with=odd:chars"
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	for name, msg := range map[string]string{
		"echoed header":      "authorization failed: denied for Authorization: Basic " + basic,
		"header without key": "server said: bad credentials " + basic + " (try again)",
		"token alone":        "token " + base64.StdEncoding.EncodeToString([]byte(pass)) + " unknown",
		"shifted by one":     "blob " + base64.StdEncoding.EncodeToString([]byte("a"+pass+"b")),
		"shifted by two":     "blob " + base64.StdEncoding.EncodeToString([]byte("ab"+pass)),
		"url alphabet":       "jwt " + base64.RawURLEncoding.EncodeToString([]byte("{\"p\":\""+pass+"\"}")),
		"query escaped":      "GET /repo?token=" + url.QueryEscape(pass) + " failed",
		"path escaped":       "GET /repo/" + url.PathEscape(pass) + "/info failed",
		"lower-case hex":     "GET /repo?token=" + regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(pass), strings.ToLower) + " failed",
	} {
		got := redactText(msg, pass, user+":"+pass)
		if strings.Contains(got, basic) || strings.Contains(got, "S3cr3t") {
			t.Errorf("%s: %q still holds the secret", name, got)
		}
		if !strings.Contains(got, "REDACTED") {
			t.Errorf("%s: %q has no REDACTED marker", name, got)
		}
		for _, enc := range []string{base64.StdEncoding.EncodeToString([]byte(pass)), url.QueryEscape(pass)} {
			if strings.Contains(got, enc) {
				t.Errorf("%s: %q still holds %q", name, got, enc)
			}
		}
	}
}

func TestRedactTextHidesUnknownAuthorizationHeaders(t *testing.T) {
	for _, msg := range []string{
		"request had Authorization: Bearer abc.def.ghi and failed",
		`{"headers":{"Authorization":"Basic dXNlcjpwYXNz"}}`,
		"proxy-authorization=Negotiate YII xyz",
	} {
		got := redactText(msg)
		for _, secret := range []string{"abc.def.ghi", "dXNlcjpwYXNz", "YII"} {
			if strings.Contains(got, secret) {
				t.Errorf("%q still holds %q", got, secret)
			}
		}
	}
	plain := "the Authorization header must be exactly one Bearer token"
	if got := redactText(plain); got != plain {
		t.Errorf("ordinary text changed: %q", got)
	}
}

func TestRedactTextKeepsOrdinaryBase64(t *testing.T) {
	msg := "commit 3f2a9c0d1e4b5a6978 tree aGVsbG8gd29ybGQ="
	if got := redactText(msg, "unrelated-secret"); got != msg {
		t.Fatalf("text without the secret changed: %q", got)
	}
}
