package httpsrv

import (
	"bytes"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// refusedBody and refusedResponse are what a connection beyond a limit
// reads before it is closed: a complete HTTP/1.1 answer, so a client or
// proxy sees why.
// The body has the ErrorBody shape every docweave server uses.
const refusedBody = `{"code":"too_many_connections","message":"the server is at its connection limit; try again later"}` + "\n"

var refusedResponse = "HTTP/1.1 503 Service Unavailable\r\n" +
	"Content-Type: application/json\r\n" +
	"Retry-After: 5\r\n" +
	"Connection: close\r\n" +
	"Content-Length: " + strconv.Itoa(len(refusedBody)) + "\r\n" +
	"\r\n" + refusedBody

// lingeringFor bounds the refused connections being answered at once:
// half the connection limit (at least 64). Beyond it Accept waits for an
// answer to finish (at most 2 × lingerTime) instead of closing the
// connection unanswered, so every refused client reads its 503 and a
// server holds at most 1.5 × max_connections file handles whatever the
// flood; the rest wait in the kernel's backlog.
func lingeringFor(maxConnections int) int {
	return max(64, maxConnections/2)
}

// lingerTime is how long a refused connection is given to send its request
// and take its answer.
const lingerTime = 250 * time.Millisecond

// refusalLogInterval spaces the warnings about refused connections: one a
// period per server, with the count, however large the flood.
const refusalLogInterval = 10 * time.Second

// LimitListener bounds the connections a server holds open: at most
// lim.MaxConnections in all and lim.MaxConnectionsPerClient from one
// client address (the TCP peer's IP). A connection beyond either is
// answered 503 and closed by Accept itself, which goes on accepting, so a
// full server keeps draining its backlog instead of leaving new clients
// (and health probes) waiting in the kernel queue — and its file handles
// stay bounded whatever the crowd (beyond lingeringFor refusals in
// flight, Accept waits for one to end). Refusals are logged to log (which
// should name the server), at most once per refusalLogInterval.
func LimitListener(l net.Listener, lim config.ServerLimits, log zerolog.Logger) net.Listener {
	return &limitListener{
		Listener:  l,
		total:     lim.MaxConnections,
		perClient: lim.MaxConnectionsPerClient,
		byClient:  map[string]int{},
		lingering: make(chan struct{}, lingeringFor(lim.MaxConnections)),
		log:       log,
	}
}

type limitListener struct {
	net.Listener
	total, perClient int

	mu       sync.Mutex
	open     int
	byClient map[string]int
	refusals RefusalCounter

	lingering chan struct{}
	log       zerolog.Logger
}

// Accept returns the next connection within the limits.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := clientOf(c.RemoteAddr())
		if reason := l.acquire(client); reason != "" {
			l.refuse(c, client, reason)
			continue
		}
		return &limitedConn{Conn: c, release: func() { l.release(client) }}, nil
	}
}

// acquire counts a new connection of client, or says which limit it is
// beyond.
func (l *limitListener) acquire(client string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.total > 0 && l.open >= l.total:
		return "max_connections"
	case l.perClient > 0 && l.byClient[client] >= l.perClient:
		return "max_connections_per_client"
	}
	l.open++
	l.byClient[client]++
	return ""
}

func (l *limitListener) release(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byClient[client]--; l.byClient[client] <= 0 {
		delete(l.byClient, client)
	}
}

// Open returns the number of connections held open (for tests and
// figures).
func (l *limitListener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// refuse answers 503 and closes c. The answer follows the client's
// request head (an answer before the request reads, to an HTTP client, as
// a stray response on an idle connection), then the write side is shut and
// what else the client sends is drained for a moment, so the close does not
// reset the connection before the client read the answer. All of it is
// bounded by twice lingerTime; when lingeringFor refusals are in flight,
// refuse waits for one of them to end (closing c unanswered broke the
// documented 503 for about half of a crowd's refused clients).
func (l *limitListener) refuse(c net.Conn, client, reason string) {
	l.noteRefusal(client, reason)
	l.lingering <- struct{}{}
	go func() {
		defer func() { <-l.lingering }()
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(lingerTime))
		readRequestHead(c)
		_ = c.SetDeadline(time.Now().Add(lingerTime))
		if _, err := io.WriteString(c, refusedResponse); err != nil {
			return
		}
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
	}()
}

// readRequestHead reads from c until the end of a request head (an empty
// line), 8 KiB, an error or the deadline.
func readRequestHead(c net.Conn) {
	var head []byte
	buf := make([]byte, 1024)
	for len(head) < 8<<10 {
		n, err := c.Read(buf)
		head = append(head, buf[:n]...)
		if bytes.Contains(head, []byte("\r\n\r\n")) || err != nil {
			return
		}
	}
}

// noteRefusal logs refusals at most once per refusalLogInterval.
func (l *limitListener) noteRefusal(client, reason string) {
	n, due := l.refusals.Note()
	if !due {
		return
	}
	l.log.Warn().Str("limit", reason).Str("client", client).Int("refused", n).Int("open", l.Open()).
		Msg("connections refused: the server is at a connection limit")
}

// RefusalCounter counts refusals and says when one is due to be logged:
// at most once per refusalLogInterval, with the count since the last one,
// so a flood of refused clients costs one log line per period.
type RefusalCounter struct {
	mu     sync.Mutex
	count  int
	logged time.Time
}

// Note counts one refusal; when a log line is due it returns the count
// since the last one and true.
func (r *RefusalCounter) Note() (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count++
	now := time.Now()
	if now.Sub(r.logged) < refusalLogInterval {
		return 0, false
	}
	n := r.count
	r.count, r.logged = 0, now
	return n, true
}

// clientOf is the key a client's connections are counted under: the IP of
// a TCP peer, else the whole address.
func clientOf(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	return addr.String()
}

// limitedConn gives its slot back when closed, once.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// CloseWrite shuts the write side when the connection can, so net/http can
// close an erroneous connection gracefully.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Close()
}

// ReadFrom keeps the TCP connection's sendfile path for net/http, which
// looks for io.ReaderFrom on the connection it serves.
func (c *limitedConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}
