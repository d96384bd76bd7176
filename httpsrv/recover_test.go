package httpsrv

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestStatusRecorderKeepsTheFirstStatus(t *testing.T) {
	rec := Record(httptest.NewRecorder())
	if rec.Started() || rec.Status() != http.StatusOK {
		t.Fatalf("fresh recorder: started %v, status %d", rec.Started(), rec.Status())
	}
	rec.WriteHeader(503)
	rec.WriteHeader(200) // ignored by net/http too
	if rec.Status() != 503 || !rec.Started() {
		t.Fatalf("status %d, started %v", rec.Status(), rec.Started())
	}
	if Record(rec) != rec {
		t.Fatal("stacked middlewares get a second recorder")
	}
	if _, ok := any(rec).(interface{ Unwrap() http.ResponseWriter }); !ok {
		t.Fatal("the recorder must expose the writer it wraps")
	}
}

// A panic becomes the server's own 500 (its headers cleared) and an error
// line with the stack; once the response has begun, only the log line.
func TestRecoverPanicsAnswersWithTheServersOwnError(t *testing.T) {
	var logs bytes.Buffer
	log := zerolog.New(&logs)
	fail := func(w http.ResponseWriter) {
		WriteError(w, http.StatusInternalServerError, "internal_error", "see the log")
	}
	panicking := RecoverPanics(log, fail, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"half"`)
		panic("backend bug")
	}))
	w := httptest.NewRecorder()
	panicking.ServeHTTP(w, httptest.NewRequest("GET", "/api/x?token=secret", nil))
	if w.Code != 500 || !strings.Contains(w.Body.String(), `"internal_error"`) || w.Header().Get("ETag") != "" {
		t.Fatalf("answer %d %q, ETag %q", w.Code, w.Body.String(), w.Header().Get("ETag"))
	}
	if !strings.Contains(logs.String(), `"panic":"backend bug"`) || !strings.Contains(logs.String(), "recover_test.go") || strings.Contains(logs.String(), "secret") {
		t.Fatalf("log line: %s", logs.String())
	}

	started := RecoverPanics(log, fail, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		panic("late")
	}))
	w = httptest.NewRecorder()
	started.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Code != http.StatusAccepted || w.Body.Len() != 0 {
		t.Fatalf("a response already begun was changed: %d %q", w.Code, w.Body.String())
	}

	defer func() {
		if p := recover(); p != http.ErrAbortHandler {
			t.Fatalf("ErrAbortHandler was not passed on: %v", p)
		}
	}()
	RecoverPanics(log, fail, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })).
		ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}
