package admin

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestRequestsAreLoggedWithStableFields(t *testing.T) {
	h := newHarness(t, "tok")
	h.do(t, http.MethodPost, "/api/build/trigger", "")
	h.doRaw(t, http.MethodGet, "/status", "") // 401
	logs := h.closeAndLogs()

	lines := requestLines(t, logs)
	trigger, ok := lines["POST /api/build/trigger"]
	if !ok {
		t.Fatalf("no request line for the trigger:\n%s", logs)
	}
	if trigger["server"] != "admin" || trigger["status"] != float64(http.StatusAccepted) || trigger["level"] != "info" {
		t.Errorf("trigger line = %v", trigger)
	}
	if _, ok := trigger["duration_ms"].(float64); !ok {
		t.Errorf("trigger line has no numeric duration_ms: %v", trigger)
	}
	if refused := lines["GET /status"]; refused["status"] != float64(http.StatusUnauthorized) {
		t.Errorf("refused line = %v", refused)
	}
	if strings.Contains(logs, "Bearer") {
		t.Errorf("the Authorization header reached the log:\n%s", logs)
	}
}

func TestProbeRequestsLogAtDebug(t *testing.T) {
	h := newHarness(t, "")
	h.doRaw(t, http.MethodGet, "/health", "")
	h.doRaw(t, http.MethodGet, "/ready", "") // 503: worth seeing
	lines := requestLines(t, h.closeAndLogs())
	if got := lines["GET /health"]["level"]; got != "debug" {
		t.Errorf("/health logged at %v, want debug", got)
	}
	if got := lines["GET /ready"]["level"]; got != "info" {
		t.Errorf("/ready 503 logged at %v, want info", got)
	}
}

func TestPanickingBackendGets500(t *testing.T) {
	h := newHarness(t, "")
	h.backend.panicMsg = "backend bug"
	wantError(t, h.doRaw(t, http.MethodGet, "/status", ""), http.StatusInternalServerError, codeInternal)
	logs := h.closeAndLogs()
	if !strings.Contains(logs, "backend bug") || !strings.Contains(logs, `"level":"error"`) {
		t.Fatalf("panic not logged as an error:\n%s", logs)
	}
}

// requestLines indexes the "request" log lines by "METHOD path".
func requestLines(t *testing.T, logs string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line %q is not JSON: %v", sc.Text(), err)
		}
		if line["message"] == "request" {
			out[line["method"].(string)+" "+line["path"].(string)] = line
		}
	}
	return out
}

func TestRequestLogLevel(t *testing.T) {
	cases := []struct {
		path   string
		status int
		want   string
	}{
		{"/health", 200, "debug"},
		{"/metrics", 200, "debug"},
		{"/ready", 503, "info"},
		{"/api/build/trigger", 202, "info"},
		{"/api/build/trigger", 400, "info"},
		{"/api/build/trigger", 503, "warn"},
		{"/status", 500, "error"},
	}
	for _, c := range cases {
		if got := requestLogLevel(c.path, c.status).String(); got != c.want {
			t.Errorf("requestLogLevel(%s, %d) = %s, want %s", c.path, c.status, got, c.want)
		}
	}
}
