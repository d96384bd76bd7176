package ingress

import (
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

func TestListenReportsAPortInUse(t *testing.T) {
	taken, err := Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	_, err = Listen("127.0.0.1", port)
	want := "ingress port " + strconv.Itoa(port) + ": "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("error %v, want %q followed by the cause", err, want)
	}
	if strings.Count(err.Error(), strconv.Itoa(port)) != 1 {
		t.Fatalf("error %q repeats the port", err)
	}
}

func TestServeShutsDownGracefully(t *testing.T) {
	ln, err := Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	inHandler := make(chan struct{})
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(inHandler)
		<-release
		io.WriteString(w, "finished")
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, h, config.DefaultServerLimits(), zerolog.Nop()) }()

	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	<-inHandler
	cancel() // like SIGTERM while a request is in flight

	// New connections are refused once shutdown has begun.
	waitFor(t, "listener closed", func() bool {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
	close(release)
	if body := <-got; body != "finished" {
		t.Fatalf("request in flight got %q, want it to finish", body)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve after graceful shutdown = %v, want nil", err)
	}
}
