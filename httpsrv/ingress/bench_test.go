package ingress

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docweave/docweave/ingress"
)

// largeCluster builds hosts×paths Ingress paths, each with its own Service
// and EndpointSlice, a third of them not ready.
func largeCluster(hosts, paths int) ingress.Objects {
	var objs ingress.Objects
	ready := true
	notReady := false
	for h := range hosts {
		host := fmt.Sprintf("host-%04d.example.com", h)
		ing := &networkingv1.Ingress{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: host, ResourceVersion: fmt.Sprint(h + 1)}}
		rule := networkingv1.IngressRule{Host: host, IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{}}}
		for p := range paths {
			svc := fmt.Sprintf("svc-%04d-%02d", h, p)
			pt := networkingv1.PathTypePrefix
			rule.HTTP.Paths = append(rule.HTTP.Paths, networkingv1.HTTPIngressPath{
				Path: fmt.Sprintf("/service/%02d", p), PathType: &pt,
				Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: svc, Port: networkingv1.ServiceBackendPort{Number: 8080}}},
			})
			objs.Services = append(objs.Services, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: svc, ResourceVersion: "1"}})
			r := &ready
			if (h*paths+p)%3 == 0 {
				r = &notReady
			}
			objs.EndpointSlices = append(objs.EndpointSlices, &discoveryv1.EndpointSlice{
				ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: svc + "-abcde", ResourceVersion: "2", Labels: map[string]string{discoveryv1.LabelServiceName: svc}},
				Endpoints:  []discoveryv1.Endpoint{{Addresses: []string{"10.1.2.3"}, Conditions: discoveryv1.EndpointConditions{Ready: r}}},
			})
		}
		ing.Spec.Rules = []networkingv1.IngressRule{rule}
		objs.Ingresses = append(objs.Ingresses, ing)
	}
	return objs
}

// loopbackServer serves a 10,000-path listing from a real listener on
// 127.0.0.1.
func loopbackServer(b *testing.B) (*httptest.Server, *ingress.Snapshot) {
	b.Helper()
	store := ingress.NewStore(nil)
	snap, _, err := store.Publish(ingress.Project(largeCluster(1000, 10)))
	if err != nil {
		b.Fatal(err)
	}
	keys, _ := NewKeySet(KeysFromList("bench", []string{"bench-key-0123456789"}))
	h, err := NewHandler(Options{Listing: store, Keys: keys, Registry: prometheus.NewRegistry(), Logger: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	return srv, snap
}

// runLoad drives the server with parallel keep-alive clients, the way a
// load generator does; b.N is the number of requests.
func runLoad(b *testing.B, srv *httptest.Server, header http.Header, wantStatus int) {
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	b.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr}
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		req, _ := http.NewRequest("GET", srv.URL+PathIngresses, nil)
		req.Header = header
		for pb.Next() {
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != wantStatus {
				b.Errorf("status %d, want %d", resp.StatusCode, wantStatus)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkLoopbackRevalidate304 measures If-None-Match revalidations over
// loopback HTTP with a 10,000-path listing.
func BenchmarkLoopbackRevalidate304(b *testing.B) {
	srv, snap := loopbackServer(b)
	runLoad(b, srv, http.Header{"Authorization": {"Bearer bench-key-0123456789"}, "If-None-Match": {snap.ETag}}, http.StatusNotModified)
}

// BenchmarkLoopbackFull200 measures full identity responses of the
// 10,000-path listing over loopback HTTP.
func BenchmarkLoopbackFull200(b *testing.B) {
	srv, snap := loopbackServer(b)
	b.SetBytes(int64(len(snap.Body)))
	runLoad(b, srv, http.Header{"Authorization": {"Bearer bench-key-0123456789"}}, http.StatusOK)
}

// BenchmarkLoopbackFull200Gzip measures full gzip responses.
func BenchmarkLoopbackFull200Gzip(b *testing.B) {
	srv, snap := loopbackServer(b)
	b.SetBytes(int64(len(snap.GzipBody)))
	runLoad(b, srv, http.Header{"Authorization": {"Bearer bench-key-0123456789"}, "Accept-Encoding": {"gzip"}}, http.StatusOK)
}

// BenchmarkHandlerRevalidate304 measures the handler alone, without the
// network, to show what a revalidation costs in CPU and allocations.
func BenchmarkHandlerRevalidate304(b *testing.B) {
	store := ingress.NewStore(nil)
	snap, _, _ := store.Publish(ingress.Project(largeCluster(1000, 10)))
	keys, _ := NewKeySet(KeysFromList("bench", []string{"bench-key-0123456789"}))
	h, _ := NewHandler(Options{Listing: store, Keys: keys, Registry: prometheus.NewRegistry(), Logger: zerolog.Nop()})
	req := httptest.NewRequest("GET", PathIngresses, nil)
	req.Header.Set("Authorization", "Bearer bench-key-0123456789")
	req.Header.Set("If-None-Match", snap.ETag)
	b.ReportAllocs()
	for b.Loop() {
		w := &discardWriter{header: http.Header{}}
		h.ServeHTTP(w, req)
		if w.status != http.StatusNotModified {
			b.Fatalf("status %d", w.status)
		}
	}
}

type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(s int)           { w.status = s }
