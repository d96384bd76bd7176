package ingress

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

func TestInstrumentCountsByRouteAndCode(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := newHTTPMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	h := m.instrument("probe", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("s") {
		case "418":
			w.WriteHeader(http.StatusTeapot)
		case "304":
			w.WriteHeader(http.StatusNotModified)
		default:
			w.Write([]byte("implicit 200"))
		}
	}))
	for _, q := range []string{"", "", "304", "418"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/?s="+q, nil))
	}
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := rec.Body.String()
	for _, want := range []string{
		`docweave_ingress_http_requests_total{code="200",route="probe"} 2`,
		`docweave_ingress_http_requests_total{code="304",route="probe"} 1`,
		`docweave_ingress_http_requests_total{code="418",route="probe"} 1`,
		`docweave_ingress_http_request_duration_seconds_count{route="probe"} 4`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(out, `code="500"`) {
		t.Error("a series exists for a status code that never occurred")
	}
}
