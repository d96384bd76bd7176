package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// probeTimeout bounds the look for a NATS server already listening where
// the embedded one would.
const probeTimeout = 2 * time.Second

// errNoJetStream says a NATS server answers but has no JetStream.
var errNoJetStream = errors.New("it has no JetStream")

// probeBroker looks for a NATS server already listening at host:port — the
// spec's default broker URL (nats://localhost:4222) is where the embedded
// broker listens too. It returns the server's URL when one answers with
// JetStream, "" when nothing speaking NATS is there (the embedded broker
// can start), and errNoJetStream when a server is there but cannot hold
// docweave's streams.
func probeBroker(ctx context.Context, host string, port int) (string, error) {
	url := "nats://" + net.JoinHostPort(host, strconv.Itoa(port))
	nc, err := nats.Connect(url, nats.Name("docweave-probe"), nats.Timeout(probeTimeout), nats.NoReconnect())
	if err != nil {
		return "", nil // nothing there, or not NATS: the embedded broker will say if the port is taken
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return "", fmt.Errorf("NATS server at %s: %w", url, err)
	}
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if _, err := js.AccountInfo(pctx); err != nil {
		return "", fmt.Errorf("NATS server at %s: %w (%v)", url, errNoJetStream, err)
	}
	return url, nil
}
