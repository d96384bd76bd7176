package bench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docweave/docweave/httpsrv/ingress"
	listing "github.com/docweave/docweave/ingress"
)

// ingressSamples are the ingress API's rates, in requests per second.
type ingressSamples struct {
	NotModified, Full []float64
	Paths             int
	BodyBytes         int
}

// ingressClients is how many keep-alive clients drive the server at once.
const ingressClients = 8

// benchKey is the API key of the bench's own ingress server; it exists
// only in this process for the duration of the run.
const benchKey = "bench-only-key-not-a-secret-0001"

// ingressFigures serves a 1,000-host, 10,000-path listing from the real
// ingress handler on a loopback port and measures how many requests per
// second it answers: revalidations with the current ETag (304) and full
// identity listings (200), each `requests` requests from parallel clients.
func ingressFigures(ctx context.Context, repeat, requests int) (ingressSamples, error) {
	var out ingressSamples
	store := listing.NewStore(nil)
	snap, _, err := store.Publish(listing.Project(SyntheticCluster(1000, 10)))
	if err != nil {
		return out, fmt.Errorf("ingress listing: %w", err)
	}
	out.Paths, out.BodyBytes = snap.Paths, len(snap.Body)
	keys, err := ingress.NewKeySet(ingress.KeysFromList("bench", []string{benchKey}))
	if err != nil {
		return out, err
	}
	h, err := ingress.NewHandler(ingress.Options{Listing: store, Keys: keys, Registry: prometheus.NewRegistry()})
	if err != nil {
		return out, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return out, fmt.Errorf("ingress server: listen on loopback: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	url := "http://" + l.Addr().String() + ingress.PathIngresses

	for i := 0; i < repeat; i++ {
		rate, err := drive(ctx, url, http.Header{"Authorization": {"Bearer " + benchKey}, "If-None-Match": {snap.ETag}}, http.StatusNotModified, requests)
		if err != nil {
			return out, fmt.Errorf("ingress 304 rate: %w", err)
		}
		out.NotModified = append(out.NotModified, rate)
		rate, err = drive(ctx, url, http.Header{"Authorization": {"Bearer " + benchKey}}, http.StatusOK, requests)
		if err != nil {
			return out, fmt.Errorf("ingress 200 rate: %w", err)
		}
		out.Full = append(out.Full, rate)
	}
	return out, nil
}

// drive sends n GET requests with header from ingressClients parallel
// keep-alive clients and returns requests per second; every answer must
// have status want.
func drive(ctx context.Context, url string, header http.Header, want, n int) (float64, error) {
	tr := &http.Transport{MaxIdleConnsPerHost: ingressClients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	start := time.Now()
	for c := 0; c < ingressClients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				req.Header = header.Clone()
				resp, err := client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != want {
						err = fmt.Errorf("status %d, want %d", resp.StatusCode, want)
					}
				}
				if err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return 0, first
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
