package httpsrv

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestEveryRefusedConnectionIsAnswered: 20 clients hold a stream each (a
// live-reload page's connection) and 400 more arrive at once, far more
// than the refusals answered at a time (lingeringFor): every one of them
// reads the 503, none is closed without an answer.
func TestEveryRefusedConnectionIsAnswered(t *testing.T) {
	const held, crowd = 20, 400
	release := make(chan struct{})
	streaming := make(chan struct{}, held)
	stream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		streaming <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	lim := testLimits(held, held)
	addr, _ := limitedServer(t, stream, lim)
	defer close(release)
	for range held {
		c := dialFrom(t, "127.0.0.1", addr)
		if _, err := fmt.Fprintf(c, "GET /sse HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		<-streaming
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers := map[string]int{}
	for i := range crowd {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcome := refusedOutcome(addr, fmt.Sprintf("127.0.0.%d", 2+i%200))
			mu.Lock()
			answers[outcome]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if answers["503"] != crowd {
		t.Fatalf("of %d clients beyond the limit: %v, want all 503", crowd, answers)
	}
}

// refusedOutcome connects from ip, asks for /sse and says what came back:
// "503", another status, or the error that ended the connection.
func refusedOutcome(addr, ip string) string {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return "dial: " + err.Error()
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprintf(c, "GET /sse HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return "write: " + err.Error()
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "closed without an answer"
	}
	resp.Body.Close()
	return fmt.Sprint(resp.StatusCode)
}
