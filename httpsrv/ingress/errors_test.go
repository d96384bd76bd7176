package ingress

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

func TestWriteError(t *testing.T) {
	rec := httptest.NewRecorder()
	writeError(rec, 503, CodeNotReady, `not "ready"`)
	if rec.Code != 503 || rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("status %d, headers %v", rec.Code, rec.Header())
	}
	var got map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["code"] != "not_ready" || got["message"] != `not "ready"` {
		t.Fatalf("body = %s", rec.Body)
	}
}

func TestErrorCodesAreEnumerated(t *testing.T) {
	all := map[ErrorCode]bool{}
	for _, c := range ErrorCode("").EnumValues() {
		all[ErrorCode(c)] = true
	}
	for _, c := range []ErrorCode{CodeMissingCredentials, CodeMalformedCredentials, CodeInvalidCredentials,
		CodeNotReady, CodeInternal, CodeNotFound, CodeMethodNotAllowed} {
		if !all[c] {
			t.Errorf("code %s missing from EnumValues, so the schema would reject it", c)
		}
	}
	if len(all) != 7 {
		t.Errorf("EnumValues has %d codes, want 7", len(all))
	}
}
