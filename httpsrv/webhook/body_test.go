package webhook

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestReadBody(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader("12345"))
	body, _, ok := readBody(r, 5)
	if !ok || string(body) != "12345" {
		t.Fatalf("body at the limit: %q, %v", body, ok)
	}
	r = httptest.NewRequest(http.MethodPost, "/webhook", strings.NewReader("123456"))
	_, rep, ok := readBody(r, 5)
	if ok || rep.status != http.StatusRequestEntityTooLarge || rep.code != CodePayloadTooLarge {
		t.Fatalf("body over the limit: %v, %d %s", ok, rep.status, rep.code)
	}
	if !strings.Contains(rep.reason, "max_body_bytes") {
		t.Errorf("message does not name the setting: %q", rep.reason)
	}
	// An unknown length (-1) is only found out by reading.
	r = httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(make([]byte, 10)))
	r.ContentLength = -1
	if _, rep, ok := readBody(r, 5); ok || rep.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("unknown length over the limit: %v, %d", ok, rep.status)
	}
}

func TestJSONPayload(t *testing.T) {
	raw := httptest.NewRequest(http.MethodPost, "/", nil)
	raw.Header.Set("Content-Type", "application/json; charset=utf-8")
	if p, err := jsonPayload(raw, []byte(`{"a":1}`)); err != nil || string(p) != `{"a":1}` {
		t.Fatalf("JSON body: %q, %v", p, err)
	}
	form := httptest.NewRequest(http.MethodPost, "/", nil)
	form.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	encoded := url.Values{"payload": {`{"ref":"refs/heads/main"}`}}.Encode()
	if p, err := jsonPayload(form, []byte(encoded)); err != nil || string(p) != `{"ref":"refs/heads/main"}` {
		t.Fatalf("form body: %q, %v", p, err)
	}
	for _, bad := range []string{"other=1", "payload=%zz"} {
		if _, err := jsonPayload(form, []byte(bad)); err == nil {
			t.Errorf("form body %q accepted", bad)
		}
	}
}
