package livereload

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/httpsrv"
	"github.com/docweave/docweave/logging"
)

// Defaults of Options.
const (
	DefaultHeartbeat    = 15 * time.Second
	DefaultWriteTimeout = 10 * time.Second
	DefaultClientBuffer = 16
)

// Options configure a Hub.
type Options struct {
	// Heartbeat is the interval of the ": ping" comment sent to every
	// client; DefaultHeartbeat when zero or negative.
	Heartbeat time.Duration
	// WriteTimeout bounds each write to one client, so a stalled client's
	// stream ends instead of holding its connection forever;
	// DefaultWriteTimeout when zero or negative. It replaces the http.Server's
	// WriteTimeout for /sse, which would otherwise cut every stream.
	WriteTimeout time.Duration
	// ClientBuffer is how many events may wait for one client before the
	// client is dropped; DefaultClientBuffer when zero or negative.
	ClientBuffer int
	// MaxStreams bounds the streams open at once and MaxStreamsPerClient
	// those of one client address; a stream beyond either is answered 503
	// with Retry-After (daemon.http.livereload_limits). Zero means no
	// limit.
	MaxStreams, MaxStreamsPerClient int
	// Log receives connections, drops and the access log.
	Log zerolog.Logger
}

// StreamRetryAfter is the Retry-After of a stream refused for a limit: long
// enough that a crowd of reconnecting pages does not hammer the server.
const StreamRetryAfter = 30 * time.Second

// errClosed is returned to new subscribers once the hub is closed.
var errClosed = errors.New("live-reload hub is closed")

// errTooManyStreams is returned to a subscriber beyond a stream limit;
// limit names the setting.
type errTooManyStreams struct{ limit string }

func (e *errTooManyStreams) Error() string {
	return "the live-reload server is at its stream limit (daemon.http.livereload_limits." + e.limit + ")"
}

// client is one open /sse stream.
type client struct {
	frames chan []byte   // encoded events waiting to be written
	gone   chan struct{} // closed when the hub dropped the client
	addr   string        // the client address it is counted under
}

// Hub fans events out to every connected /sse client.
type Hub struct {
	heartbeat    time.Duration
	writeTimeout time.Duration
	buffer       int
	maxStreams   int
	maxPerClient int
	log          zerolog.Logger

	mu           sync.Mutex
	clients      map[*client]struct{}
	byAddr       map[string]int // open streams per client address
	refusals     httpsrv.RefusalCounter
	seq          uint64 // id of the last event published
	lastReload   []byte // frame of the last reload event, for replay
	lastReloadID uint64
	lastBuildID  string
	closed       bool
	done         chan struct{}
}

// NewHub returns a hub with no clients.
func NewHub(opts Options) *Hub {
	h := &Hub{
		heartbeat:    opts.Heartbeat,
		writeTimeout: opts.WriteTimeout,
		buffer:       opts.ClientBuffer,
		maxStreams:   opts.MaxStreams,
		maxPerClient: opts.MaxStreamsPerClient,
		log:          opts.Log.With().Str(logging.FieldServer, ServerName).Logger(),
		clients:      make(map[*client]struct{}),
		byAddr:       make(map[string]int),
		done:         make(chan struct{}),
	}
	if h.heartbeat <= 0 {
		h.heartbeat = DefaultHeartbeat
	}
	if h.writeTimeout <= 0 {
		h.writeTimeout = DefaultWriteTimeout
	}
	if h.buffer <= 0 {
		h.buffer = DefaultClientBuffer
	}
	return h
}

// Publish sends ev to every connected client without waiting for any of
// them: a client whose queue is full is dropped (its browser reconnects and
// is told about the last reload then). A reload event is also remembered
// for the hello of later clients and for Last-Event-ID replay. An event
// whose name is not a single line or whose data does not encode as JSON is
// logged and not sent.
func (h *Hub) Publish(ev Event) {
	payload, err := encodeData(ev.Name, ev.Data)
	if err != nil {
		h.log.Error().Err(err).Msg("live-reload event not sent")
		return
	}
	buildID := ""
	if ev.Name == EventReload {
		buildID = buildIDOf(ev.Data)
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.seq++
	frame := frameOf(ev.Name, h.seq, payload)
	if ev.Name == EventReload {
		h.lastReload, h.lastReloadID, h.lastBuildID = frame, h.seq, buildID
	}
	dropped := 0
	for c := range h.clients {
		select {
		case c.frames <- frame:
		default:
			h.dropLocked(c)
			dropped++
		}
	}
	ev2 := h.log.Debug()
	if dropped > 0 {
		ev2 = h.log.Warn()
	}
	ev2.Str("event", ev.Name).Uint64("id", h.seq).Int("clients", len(h.clients)).Int("dropped", dropped).
		Msg("live-reload event published")
}

// Clients returns the number of connected clients.
func (h *Hub) Clients() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

// Close ends every stream and refuses new ones (503); later Publish calls do
// nothing. Call it before http.Server.Shutdown (or register it with
// RegisterOnShutdown): Shutdown waits for handlers, and streams only end
// when the hub tells them to. Close is idempotent.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	for c := range h.clients {
		h.dropLocked(c)
	}
	close(h.done)
}

// dropLocked forgets c and tells its stream to end; h.mu is held.
func (h *Hub) dropLocked(c *client) {
	if _, ok := h.clients[c]; !ok {
		return
	}
	delete(h.clients, c)
	if h.byAddr[c.addr]--; h.byAddr[c.addr] <= 0 {
		delete(h.byAddr, c.addr)
	}
	close(c.gone)
}

// unsubscribe forgets c when its stream ended on its own.
func (h *Hub) unsubscribe(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.dropLocked(c)
}

// subscribe registers a new client of address addr (within the stream
// limits) and returns the frames to send before anything published later:
// the retry hint, the hello event and, when the client's Last-Event-ID
// shows it missed the last reload, that reload.
func (h *Hub) subscribe(lastEventID, addr string) (*client, []byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, nil, errClosed
	}
	switch {
	case h.maxStreams > 0 && len(h.clients) >= h.maxStreams:
		return nil, nil, &errTooManyStreams{limit: "max_streams"}
	case h.maxPerClient > 0 && h.byAddr[addr] >= h.maxPerClient:
		return nil, nil, &errTooManyStreams{limit: "max_streams_per_client"}
	}
	c := &client{frames: make(chan []byte, h.buffer), gone: make(chan struct{}), addr: addr}
	h.clients[c] = struct{}{}
	h.byAddr[addr]++

	initial := append([]byte(nil), retryFrame...)
	// The hello carries the current id, so a client that reconnects after
	// it reports an id from which a missed reload can be recognised.
	hello, err := encodeFrame(EventHello, h.seq, HelloPayload{BuildID: h.lastBuildID})
	if err != nil { // a constant name and a one-string struct always encode
		h.dropLocked(c)
		return nil, nil, err
	}
	initial = append(initial, hello...)
	if h.missedLastReload(lastEventID) {
		initial = append(initial, h.lastReload...)
	}
	return c, initial, nil
}

// missedLastReload reads a Last-Event-ID header: the client missed the last
// reload when its id is older than that reload's, or newer than anything
// this process sent (an id from before a restart), or not ours at all.
// Without the header (a fresh page load) nothing is replayed. h.mu is held.
func (h *Hub) missedLastReload(lastEventID string) bool {
	if h.lastReload == nil || lastEventID == "" {
		return false
	}
	n, err := strconv.ParseUint(lastEventID, 10, 64)
	if err != nil {
		return true
	}
	return n < h.lastReloadID || n > h.seq
}

// noteRefusal counts a stream refused for a limit and logs, at most once
// per period, how many were.
func (h *Hub) noteRefusal(limit string) {
	n, due := h.refusals.Note()
	if !due {
		return
	}
	h.log.Warn().Str("limit", limit).Int("refused", n).Int("clients", h.Clients()).
		Msg("live-reload streams refused: the server is at a stream limit")
}
