package farm

import (
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// LinkServers stand in for the external sites the farm's pages link to:
// several loopback HTTP servers (each its own host:port, so a verifier's
// per-host rate limit applies as it would to real sites) that answer every
// GET and HEAD with 200 after a fixed latency.
type LinkServers struct {
	servers  []*http.Server
	bases    []string
	requests atomic.Int64
}

// StartLinkServers starts n servers on 127.0.0.1 that answer after latency.
func StartLinkServers(n int, latency time.Duration) (*LinkServers, error) {
	if n < 1 {
		return nil, fmt.Errorf("link servers: need at least 1, got %d", n)
	}
	ls := &LinkServers{}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ls.requests.Add(1)
		if latency > 0 {
			select {
			case <-time.After(latency):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method != http.MethodHead {
			fmt.Fprintf(w, "<!doctype html><title>%s</title><p>An external page.</p>\n", r.URL.Path)
		}
	})
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			ls.Close()
			return nil, fmt.Errorf("link server %d: listen on loopback: %w", i, err)
		}
		s := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = s.Serve(l) }()
		ls.servers = append(ls.servers, s)
		ls.bases = append(ls.bases, "http://"+l.Addr().String())
	}
	return ls, nil
}

// Bases are the servers' base URLs, for Spec.LinkBases.
func (ls *LinkServers) Bases() []string { return append([]string(nil), ls.bases...) }

// Requests is how many requests the servers have answered or are answering.
func (ls *LinkServers) Requests() int64 { return ls.requests.Load() }

// Close stops every server.
func (ls *LinkServers) Close() {
	for _, s := range ls.servers {
		_ = s.Close()
	}
}
