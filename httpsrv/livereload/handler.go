package livereload

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Handler returns the live-reload server's handler:
//
//	GET /sse      the event stream (text/event-stream, CORS open to any origin,
//	              because the docs pages come from another port)
//	OPTIONS /sse  the CORS preflight answer
//	GET /health   liveness, 200 {"status":"ok"}
//
// Other methods get 405 and other paths 404, with JSON error bodies.
func (h *Hub) Handler() http.Handler {
	return withAccessLog(h.log, http.HandlerFunc(h.route))
}

func (h *Hub) route(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/sse":
		switch r.Method {
		case http.MethodGet:
			h.serveStream(w, r)
		case http.MethodOptions:
			servePreflight(w)
		default:
			methodNotAllowed(w, r, "GET, OPTIONS")
		}
	case "/health":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed(w, r, "GET, HEAD")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			w.Write([]byte(`{"status":"ok"}` + "\n"))
		}
	default:
		writeError(w, http.StatusNotFound, CodeNotFound,
			fmt.Sprintf("no endpoint at %s; the live-reload server serves /sse and /health", r.URL.Path))
	}
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed,
		fmt.Sprintf("method %s is not allowed on %s; expected %s", r.Method, r.URL.Path, allow))
}

// servePreflight answers a CORS preflight for /sse. Browsers do not need one
// for a plain EventSource, but a client sending its own headers does.
func servePreflight(w http.ResponseWriter) {
	hdr := w.Header()
	hdr.Set("Access-Control-Allow-Origin", "*")
	hdr.Set("Access-Control-Allow-Methods", "GET")
	hdr.Set("Access-Control-Allow-Headers", "Last-Event-ID, Cache-Control")
	hdr.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}

// serveStream keeps one /sse connection: the initial frames, then every
// published event and a heartbeat, until the client leaves, the hub drops
// it, a write fails or the hub closes.
func (h *Hub) serveStream(w http.ResponseWriter, r *http.Request) {
	c, initial, err := h.subscribe(r.Header.Get("Last-Event-ID"), clientAddr(r))
	if errors.Is(err, errClosed) {
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, CodeShuttingDown, "the live-reload server is shutting down")
		return
	}
	var tooMany *errTooManyStreams
	if errors.As(err, &tooMany) {
		h.noteRefusal(tooMany.limit)
		w.Header().Set("Retry-After", strconv.Itoa(int(StreamRetryAfter/time.Second)))
		w.Header().Set("Connection", "close") // free the connection as well
		writeError(w, http.StatusServiceUnavailable, CodeTooManyStreams, err.Error()+"; try again later")
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal_error", "the stream could not be opened")
		return
	}
	defer h.unsubscribe(c)

	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("Access-Control-Allow-Origin", "*")
	hdr.Set("X-Accel-Buffering", "no") // tell nginx-style proxies not to buffer the stream
	hdr.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)

	rc := http.NewResponseController(w)
	// A stream outlives any http.Server ReadTimeout. net/http lifts the read
	// deadline of an HTTP/1 connection once the handler runs; lift it here
	// too so the stream does not depend on that. The server's WriteTimeout is
	// replaced by a deadline per write (see send).
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		h.log.Warn().Err(err).Msg("live-reload stream: clear read deadline")
	}
	send := func(frame []byte) error {
		if err := rc.SetWriteDeadline(time.Now().Add(h.writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		if _, err := w.Write(frame); err != nil {
			return err
		}
		return rc.Flush()
	}

	start := time.Now()
	h.log.Debug().Str("remote", r.RemoteAddr).Int("clients", h.Clients()).Msg("live-reload client connected")
	reason := "client left"
	defer func() {
		h.log.Debug().Str("remote", r.RemoteAddr).Str("reason", reason).
			Float64("connected_s", time.Since(start).Seconds()).Msg("live-reload client disconnected")
	}()

	if err := send(initial); err != nil {
		reason = "write failed: " + err.Error()
		return
	}
	ticker := time.NewTicker(h.heartbeat)
	defer ticker.Stop()
	for {
		var frame []byte
		select {
		case frame = <-c.frames:
		case <-ticker.C:
			frame = heartbeatFrame
		case <-c.gone:
			reason = "dropped: too far behind"
			select {
			case <-h.done:
				reason = "hub closed"
			default:
			}
			return
		case <-h.done:
			reason = "hub closed"
			return
		case <-r.Context().Done():
			return
		}
		if err := send(frame); err != nil {
			reason = "write failed: " + err.Error()
			return
		}
	}
}

// clientAddr is the address a client's streams are counted under: the IP
// of the TCP peer (not a forwarded-for header, which anyone can write).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
