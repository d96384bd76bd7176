package ingress

import (
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docweave/docweave/httpsrv"
)

// httpMetrics are the request counters and latencies of the ingress
// server, labelled by route (never by raw path, which a client controls)
// and status code.
type httpMetrics struct {
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	authFailures *prometheus.CounterVec
}

func newHTTPMetrics(reg prometheus.Registerer) (*httpMetrics, error) {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docweave_ingress_http_requests_total",
			Help: "HTTP requests served by the ingress server, by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "docweave_ingress_http_request_duration_seconds",
			Help:    "Time to serve HTTP requests of the ingress server, by route.",
			Buckets: []float64{0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1},
		}, []string{"route"}),
		authFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docweave_ingress_auth_failures_total",
			Help: "Requests refused with 401, by reason (missing, malformed, invalid).",
		}, []string{"reason"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.authFailures} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register ingress HTTP metrics: %w", err)
		}
	}
	for _, p := range []authProblem{authMissing, authMalformed, authInvalid} {
		m.authFailures.WithLabelValues(p.String()) // export zeros, so rates work from the start
	}
	return m, nil
}

// instrument wraps h so its requests are counted and timed under route.
func (m *httpMetrics) instrument(route string, h http.Handler) http.Handler {
	observer := m.duration.WithLabelValues(route)
	// One counter per status code, created when the code first occurs (so
	// /metrics lists no series that never happened) and then found by
	// index, without hashing label values on the hot path.
	var byCode [600]atomic.Pointer[prometheus.Counter]
	counter := func(code int) prometheus.Counter {
		if code < 0 || code >= len(byCode) {
			return m.requests.WithLabelValues(route, strconv.Itoa(code))
		}
		if c := byCode[code].Load(); c != nil {
			return *c
		}
		c := m.requests.WithLabelValues(route, strconv.Itoa(code))
		byCode[code].Store(&c)
		return c
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := httpsrv.Record(w)
		h.ServeHTTP(rec, r)
		observer.Observe(time.Since(start).Seconds())
		counter(rec.Status()).Inc()
	})
}
