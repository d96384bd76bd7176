package ingress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/httpsrv"
)

// ShutdownTimeout bounds how long a graceful shutdown waits for requests in
// flight before closing their connections.
const ShutdownTimeout = 10 * time.Second

// Listen binds the ingress port on every interface (host "") or on host.
// Binding happens before anything is served, so a port in use stops the
// command with "ingress port <port>: <cause>" — the form every docweave
// server uses — instead of a half-started process. Port 0 picks a free
// port (tests).
func Listen(host string, port int) (net.Listener, error) {
	lns, err := httpsrv.BindAll([]httpsrv.Binding{{Server: "ingress", Host: host, Port: port}})
	if err != nil {
		return nil, err
	}
	return lns[0], nil
}

// Serve serves h on ln within lim (ingress.limits: timeouts, connections
// in all and per client) until ctx ends, then shuts down gracefully: the
// listener closes at once, requests in flight get up to ShutdownTimeout to
// finish. It returns nil after a graceful shutdown.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, lim config.ServerLimits, logger zerolog.Logger) error {
	srv := httpsrv.NewServer(h, lim)
	errc := make(chan error, 1)
	limited := httpsrv.LimitListener(ln, lim, logger)
	go func() { errc <- srv.Serve(limited) }()
	logger.Info().Str("address", ln.Addr().String()).Msg("ingress server listening")
	select {
	case err := <-errc:
		return fmt.Errorf("ingress server: %w", err)
	case <-ctx.Done():
	}
	logger.Info().Msg("ingress server shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
		return fmt.Errorf("ingress server shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("ingress server: %w", err)
	}
	return nil
}
