package httpsrv

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// limitedServer serves h on 127.0.0.1 (every interface of the loopback
// network, so clients may come from 127.0.0.2) within lim.
func limitedServer(t *testing.T, h http.Handler, lim config.ServerLimits) (string, *limitListener) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ll := LimitListener(l, lim, zerolog.Nop()).(*limitListener)
	srv := NewServer(h, lim)
	go srv.Serve(ll)
	t.Cleanup(func() { srv.Close() })
	return l.Addr().String(), ll
}

// dialFrom opens a TCP connection from the given loopback address.
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// roundTrip sends GET path on c and returns the status code.
func roundTrip(t *testing.T, c net.Conn, path string) int {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path); err != nil {
		return 0 // a refused connection may already be closed
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func okHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
}

func testLimits(total, perClient int) config.ServerLimits {
	lim := config.DefaultServerLimits()
	lim.MaxConnections, lim.MaxConnectionsPerClient = total, perClient
	return lim
}

func TestConnectionsBeyondTheTotalAreAnswered503AndClosed(t *testing.T) {
	addr, ll := limitedServer(t, okHandler(), testLimits(3, 3))
	var held []net.Conn
	for i := range 3 {
		c := dialFrom(t, fmt.Sprintf("127.0.0.%d", i+1), addr)
		if code := roundTrip(t, c, "/"); code != http.StatusOK {
			t.Fatalf("connection %d: %d", i, code)
		}
		held = append(held, c)
	}
	extra := dialFrom(t, "127.0.0.4", addr)
	if code := roundTrip(t, extra, "/health"); code != http.StatusServiceUnavailable {
		t.Fatalf("a fourth connection got %d, want 503", code)
	}
	if _, err := extra.Read(make([]byte, 1)); err == nil {
		t.Fatal("the refused connection stayed open")
	}
	held[0].Close()
	waitFor(t, "a slot to be freed", func() bool { return ll.Open() < 3 })
	if code := roundTrip(t, dialFrom(t, "127.0.0.4", addr), "/"); code != http.StatusOK {
		t.Fatalf("after one closed: %d", code)
	}
}

func TestOneClientCannotTakeEveryConnection(t *testing.T) {
	addr, _ := limitedServer(t, okHandler(), testLimits(100, 2))
	for range 2 {
		if code := roundTrip(t, dialFrom(t, "127.0.0.1", addr), "/"); code != http.StatusOK {
			t.Fatalf("within the per-client limit: %d", code)
		}
	}
	c := dialFrom(t, "127.0.0.1", addr)
	resp := readRaw(t, c)
	if !strings.HasPrefix(resp, "HTTP/1.1 503") || !strings.Contains(resp, "too_many_connections") || !strings.Contains(resp, "Retry-After: 5") {
		t.Fatalf("third connection of one client: %q", resp)
	}
	// Another client is not affected.
	if code := roundTrip(t, dialFrom(t, "127.0.0.2", addr), "/health"); code != http.StatusOK {
		t.Fatalf("another client: %d", code)
	}
}

// readRaw reads what the server sends on c unprompted, until it closes.
func readRaw(t *testing.T, c net.Conn) string {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	b, err := io.ReadAll(c)
	if err != nil && !errors.Is(err, net.ErrClosed) && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}

// A request body that trickles in is cut off by the read timeout; the
// handler sees an error instead of waiting forever.
func TestSlowRequestBodiesAreCutOff(t *testing.T) {
	readErr := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		readErr <- err
	})
	lim := testLimits(10, 10)
	lim.ReadHeaderTimeout, lim.ReadTimeout = time.Second, time.Second
	addr, _ := limitedServer(t, h, lim)
	c := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(c, "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\npartial")
	select {
	case err := <-readErr:
		var netErr net.Error
		if err == nil || !errors.As(err, &netErr) || !netErr.Timeout() {
			t.Fatalf("body read ended with %v, want a timeout", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the body read never ended")
	}
}

func TestSlowHeadersAreCutOff(t *testing.T) {
	lim := testLimits(10, 10)
	lim.ReadHeaderTimeout, lim.ReadTimeout = time.Second, 2*time.Second
	addr, ll := limitedServer(t, okHandler(), lim)
	c := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n") // never ends the headers
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.ReadAll(c); err != nil && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("read: %v", err)
	}
	waitFor(t, "the slot of the slow client to be freed", func() bool { return ll.Open() == 0 })
}

// A flood of connections holds at most the limit open, and every other
// connection is answered 503 and closed.
func TestFloodHoldsAtMostTheLimit(t *testing.T) {
	lim := testLimits(20, 20)
	lim.ReadHeaderTimeout, lim.ReadTimeout = time.Second, time.Second // the held ones send nothing
	addr, ll := limitedServer(t, okHandler(), lim)
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	peak := 0
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.DialTimeout("tcp", addr, 10*time.Second)
			if err != nil {
				return
			}
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(20 * time.Second))
			resp := make([]byte, 12)
			io.ReadFull(c, resp) // only refused connections get an unprompted answer
			mu.Lock()
			if strings.HasPrefix(string(resp), "HTTP/1.1 503") {
				codes[503]++
			}
			if n := ll.Open(); n > peak {
				peak = n
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if peak > 20 {
		t.Fatalf("%d connections were open at once, limit 20", peak)
	}
	// Every refused connection reads the 503 (TestEveryRefusedConnectionIsAnswered
	// counts them); the held ones read nothing.
	if codes[503] == 0 {
		t.Fatal("no refused connection read the 503 answer")
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
