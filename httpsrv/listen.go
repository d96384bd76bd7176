package httpsrv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/docweave/docweave/config"
)

// Binding names one server's address.
type Binding struct {
	Server string // "docs", "webhook", "admin", "livereload"
	Host   string // "" listens on every interface
	Port   int
	// Key is the configuration key that sets Port, with its place in the
	// file when known ("daemon.http.docs_port (site.yaml:9)"), so a port
	// another process holds is named with what to change.
	Key string
}

// BindAll binds every address before any server starts, so a daemon either
// gets all its ports or none: on the first failure it closes what it had
// bound and returns an error of the form "<server> port <port>: <cause>".
func BindAll(bindings []Binding) ([]net.Listener, error) {
	seen := map[int]string{}
	for _, b := range bindings {
		if other, dup := seen[b.Port]; dup && b.Port != 0 {
			return nil, fmt.Errorf("%s port %d: also configured for the %s server", b.Server, b.Port, other)
		}
		seen[b.Port] = b.Server
	}
	out := make([]net.Listener, 0, len(bindings))
	for _, b := range bindings {
		l, err := net.Listen("tcp", net.JoinHostPort(b.Host, strconv.Itoa(b.Port)))
		if err != nil {
			for _, o := range out {
				o.Close()
			}
			cause := causeOf(err)
			if errors.Is(err, syscall.EADDRINUSE) && b.Key != "" {
				return nil, fmt.Errorf("%s port %d: %w; another process listens there (another docweave?): stop it, or set %s to a free port", b.Server, b.Port, cause, b.Key)
			}
			return nil, fmt.Errorf("%s port %d: %w", b.Server, b.Port, cause)
		}
		out = append(out, l)
	}
	return out, nil
}

// causeOf strips the "listen tcp :8080:" prefix net adds, keeping the cause
// ("address already in use").
func causeOf(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}

// NewServer wraps a handler with the timeouts of lim, which protect a
// server from slow clients without cutting off long responses: the
// headers and the whole request (body included) must arrive in time, an
// idle keep-alive connection is closed, and responses have no deadline (a
// large file to a slow reader). Streams (server-sent events) lift the read
// deadline themselves once their request is read. Serve it on
// LimitListener to bound its connections as well.
func NewServer(h http.Handler, lim config.ServerLimits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    1 << 20,
	}
}

// Shutdown stops servers gracefully, waiting at most timeout.
func Shutdown(timeout time.Duration, servers ...*http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for _, s := range servers {
		_ = s.Shutdown(ctx)
	}
}
