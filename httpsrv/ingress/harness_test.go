package ingress

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	legacyrouter "github.com/getkin/kin-openapi/routers/legacy"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docweave/docweave/ingress"
)

const (
	keyA = "key-A-0123456789abcdef"
	keyB = "key-B-fedcba9876543210"
)

// fakeListing is a Listing whose snapshot the test sets; it may panic to
// exercise the 500 path.
type fakeListing struct {
	snap  atomic.Pointer[ingress.Snapshot]
	panic atomic.Bool
}

func (f *fakeListing) Current() *ingress.Snapshot {
	if f.panic.Load() {
		panic("listing exploded")
	}
	return f.snap.Load()
}

// server is a real ingress server on 127.0.0.1 with a random port, plus
// the OpenAPI document it serves, loaded by kin-openapi to validate every
// response the tests receive.
type server struct {
	t        *testing.T
	url      string
	listing  *fakeListing
	keys     *KeySet
	registry *prometheus.Registry
	router   routers.Router
}

func snapshotOf(t testing.TB, hosts ...string) *ingress.Snapshot {
	t.Helper()
	var ings []*networkingv1.Ingress
	for i, h := range hosts {
		ings = append(ings, &networkingv1.Ingress{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: h, ResourceVersion: string(rune('1' + i))},
			Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{
				Host: h,
				IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{Paths: []networkingv1.HTTPIngressPath{{
					Path: "/", Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{
						Name: "svc", Port: networkingv1.ServiceBackendPort{Number: 80},
					}},
				}}}},
			}}},
		})
	}
	s, err := ingress.NewSnapshot(ingress.Project(ingress.Objects{Ingresses: ings}))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func startServer(t *testing.T, cacheControl string) *server {
	t.Helper()
	keys, err := NewKeySet(KeysFromList("test", []string{keyA, keyB}))
	if err != nil {
		t.Fatal(err)
	}
	listing := &fakeListing{}
	listing.snap.Store(snapshotOf(t, "b.example.com", "a.example.com"))
	reg := prometheus.NewRegistry()
	h, err := NewHandler(Options{Listing: listing, Keys: keys, CacheControl: cacheControl, Registry: reg, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h) // a real listener on 127.0.0.1, random port
	t.Cleanup(ts.Close)
	s := &server{t: t, url: ts.URL, listing: listing, keys: keys, registry: reg}

	resp, body := s.do(t, "GET", PathOpenAPI, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %d", resp.StatusCode)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	if err != nil {
		t.Fatalf("served OpenAPI document does not load: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("served OpenAPI document is invalid: %v", err)
	}
	if s.router, err = legacyrouter.NewRouter(doc); err != nil {
		t.Fatal(err)
	}
	return s
}

// do sends a request with the given headers (no automatic gzip) and
// returns the response and its raw body.
func (s *server) do(t *testing.T, method, path string, headers map[string][]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	// A transport without automatic decompression, so the test sees
	// exactly what the server sent.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// get sends a request and validates the response against the served
// OpenAPI document: status documented, headers present, body matching the
// schema. A 304 is checked here by hand, because kin-openapi skips it.
func (s *server) get(t *testing.T, path string, headers map[string][]string) (*http.Response, []byte) {
	t.Helper()
	resp, body := s.do(t, http.MethodGet, path, headers)
	s.validate(t, resp, body)
	return resp, body
}

func (s *server) validate(t *testing.T, resp *http.Response, raw []byte) {
	t.Helper()
	req := resp.Request
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s is not in the OpenAPI document: %v", req.Method, req.URL.Path, err)
	}
	if resp.StatusCode == http.StatusNotModified {
		if len(raw) != 0 {
			t.Fatalf("304 with a body of %d bytes", len(raw))
		}
		doc304 := route.Operation.Responses.Status(304)
		if doc304 == nil {
			t.Fatalf("304 is not documented for %s", req.URL.Path)
		}
		for name, h := range doc304.Value.Headers {
			if h.Value.Required && resp.Header.Get(name) == "" {
				t.Fatalf("304 lacks the documented header %s", name)
			}
		}
		return
	}
	body := raw
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("gzip body: %v", err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatalf("gzip body: %v", err)
		}
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Fatalf("%s %s → %d does not match the OpenAPI document: %v\nbody: %s", req.Method, req.URL.Path, resp.StatusCode, err, body)
	}
}

func bearer(key string) map[string][]string {
	return map[string][]string{"Authorization": {"Bearer " + key}}
}

func with(h map[string][]string, name string, values ...string) map[string][]string {
	out := map[string][]string{}
	for k, v := range h {
		out[k] = v
	}
	out[name] = values
	return out
}
