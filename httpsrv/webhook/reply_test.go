package webhook

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestReplyWrite(t *testing.T) {
	cases := []struct {
		rep    reply
		status int
		body   string
	}{
		{errorReply(http.StatusUnauthorized, CodeInvalidSignature, "nope"), 401, `{"code":"invalid_signature","message":"nope"}`},
		{ignored("why"), 202, `{"status":"ignored","reason":"why"}`},
		{pong(), 200, `{"status":"pong"}`},
		{accepted(Trigger{Repositories: []string{"a"}}, TriggerResult{BuildID: "b1", Coalesced: true}), 202,
			`{"status":"accepted","build_id":"b1","coalesced":true,"repositories":["a"]}`},
		{internalError(panicError{"boom"}), 500, `{"code":"internal_error","message":"internal error; the server log has details"}`},
	}
	for _, c := range cases {
		w := httptest.NewRecorder()
		c.rep.write(w, httptest.NewRequest(http.MethodPost, "/", nil))
		if w.Code != c.status {
			t.Errorf("status %d, want %d", w.Code, c.status)
		}
		var got, want any
		json.Unmarshal(w.Body.Bytes(), &got)
		json.Unmarshal([]byte(c.body), &want)
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("body %s, want %s", gotJSON, wantJSON)
		}
		if ct := w.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
			t.Errorf("Cache-Control %q", cc)
		}
	}
}

func TestPanicBecomes500(t *testing.T) {
	s := &server{log: testLogger(t), refusals: testLogger(t)}
	h := s.endpoint(func(*http.Request) reply { panic("bug") })
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/webhook", nil))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", w.Code)
	}
	var body errorBody
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Code != CodeInternal {
		t.Fatalf("body %s, %v", w.Body.String(), err)
	}
}
