package docs

import (
	"github.com/docweave/docweave/httpsrv"

	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestWriteErrorBody(t *testing.T) {
	rec := httptest.NewRecorder()
	writeError(rec, http.StatusNotFound, CodeNotFound, "no page at /x")
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d Content-Type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	var body httpsrv.ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Code != CodeNotFound || body.Message != "no page at /x" {
		t.Fatalf("body %+v", body)
	}
}
