package livereload

import (
	"github.com/docweave/docweave/httpsrv"

	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestWriteErrorBody(t *testing.T) {
	rec := httptest.NewRecorder()
	writeError(rec, http.StatusServiceUnavailable, CodeShuttingDown, "bye")
	var body httpsrv.ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Content-Type") != "application/json" ||
		body.Code != CodeShuttingDown || body.Message != "bye" {
		t.Fatalf("status %d, Content-Type %q, body %+v", rec.Code, rec.Header().Get("Content-Type"), body)
	}
}
