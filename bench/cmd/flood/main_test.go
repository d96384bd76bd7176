package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestBurstAndStreamsAgainstARealServer(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	mux.HandleFunc("/busy", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	mux.HandleFunc("/sse", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")

	res, err := run([]string{"-mode", "burst", "-n", "50", "-sources", "3", "-target", srv.URL + "/busy", "-health", host, "-probe-every", "5ms"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome["503"] != 50 || res.Health.Failures != 0 {
		t.Fatalf("burst: %+v", res)
	}
	start := time.Now()
	res, err = run([]string{"-mode", "sse", "-n", "20", "-target", srv.URL + "/sse", "-health", host, "-hold", "200ms", "-probe-every", "20ms"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome["200"] != 20 || res.PeakOpen != 20 || res.Health.Probes == 0 || time.Since(start) < 200*time.Millisecond {
		t.Fatalf("sse: %+v", res)
	}
	if _, err := run([]string{"-mode", "sse"}); err == nil {
		t.Fatal("missing -target accepted")
	}
}
