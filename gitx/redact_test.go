package gitx

import (
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
