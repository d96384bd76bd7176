package webhook

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// testLogger discards output but keeps every level enabled, so logging
// code runs.
func testLogger(t *testing.T) zerolog.Logger {
	t.Helper()
	return zerolog.New(zerolog.Nop()).Level(zerolog.TraceLevel)
}

func TestRequestLogLineFields(t *testing.T) {
	h := newHarness(t, nil)
	push := masterPush(t)
	h.post(t, PathGitHub, githubHeaders("push", push), push)

	line := lastLogLine(t, h.logs.String())
	for key, want := range map[string]any{
		"server": "webhook", "method": "POST", "path": PathGitHub, "status": float64(202),
		"outcome": "accepted", "source": "github", "event": "push", "build_id": "build-0001",
		"delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958", "branch": "master", "coalesced": false,
	} {
		if line[key] != want {
			t.Errorf("log field %s = %v, want %v", key, line[key], want)
		}
	}
	if _, ok := line["duration_ms"].(float64); !ok {
		t.Errorf("log line has no numeric duration_ms: %v", line)
	}
	if repos, _ := line["repositories"].([]any); len(repos) != 1 || repos[0] != "hello" {
		t.Errorf("log field repositories = %v", line["repositories"])
	}
}

func TestLogsNeverContainSecretsOrSignatures(t *testing.T) {
	h := newHarness(t, nil)
	push := masterPush(t)
	gl := readFixture(t, "gitlab/push_hook.json")
	fj := readFixture(t, "forgejo/push.json")
	generic := []byte(`{}`)
	var signatures []string
	send := func(path string, header map[string]string, body []byte) {
		for k, v := range header {
			if strings.Contains(k, "Signature") || strings.Contains(k, "Token") {
				signatures = append(signatures, strings.TrimPrefix(v, "sha256="))
			}
		}
		h.post(t, path, header, body)
	}
	send(PathGitHub, githubHeaders("push", push), push)
	send(PathGitHub, map[string]string{HeaderGitHubEvent: "push", HeaderGitHubSignature: "sha256=" + hexHMAC("guess", push)}, push)
	send(PathGitLab, gitlabHeaders("Push Hook"), gl)
	send(PathGitLab, map[string]string{HeaderGitLabEvent: "Push Hook", HeaderGitLabToken: "wrong-token-guess"}, gl)
	send(PathForgejo, forgejoHeaders("push", fj), fj)
	send(PathGeneric, genericHeaders(generic), generic)
	send(PathGeneric, map[string]string{HeaderGenericSignature: "sha256=" + strings.Repeat("f", 64)}, generic)

	logs := h.logs.String()
	if strings.Count(logs, "\n") < 7 {
		t.Fatalf("expected a log line per request, got:\n%s", logs)
	}
	for _, secret := range append([]string{testGitHubSecret, testGitLabToken, testForgejoSecret, testGenericSecret, "secret-in-url"}, signatures...) {
		if strings.Contains(logs, secret) {
			t.Errorf("log contains %q", secret)
		}
	}
}

func TestRefusalIsLoggedAsWarning(t *testing.T) {
	h := newHarness(t, nil)
	h.post(t, PathGitHub, map[string]string{HeaderGitHubEvent: "push"}, []byte(`{}`))
	line := lastLogLine(t, h.logs.String())
	if line["level"] != "warn" || line["code"] != string(CodeInvalidSignature) || line["status"] != float64(http.StatusUnauthorized) {
		t.Fatalf("log line %v, want a warning with code invalid_signature", line)
	}
}

func TestSanitizeForLog(t *testing.T) {
	if got := sanitizeForLog("a\x00b\nc"); got != "a?b?c" {
		t.Errorf("sanitizeForLog = %q", got)
	}
	if got := sanitizeForLog(strings.Repeat("x", 500)); len(got) != maxLoggedIDLength {
		t.Errorf("length %d, want %d", len(got), maxLoggedIDLength)
	}
}

// lastLogLine decodes the last JSON log line.
func lastLogLine(t *testing.T, logs string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	var line map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &line); err != nil {
		t.Fatalf("log line %q: %v", lines[len(lines)-1], err)
	}
	return line
}
