package natsbroker

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
)

// startTestServer runs a real nats-server with JetStream on a random
// loopback port, optionally demanding a user and password.
func startTestServer(t *testing.T, user, pass string) *server.Server {
	t.Helper()
	ns, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		Username: user, Password: pass, NoSigs: true, NoLog: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats server not ready")
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}

// accountInfo asks the broker for the account's JetStream information, a
// request that proves the connection and JetStream work.
func accountInfo(ctx context.Context, b *Broker) (*jetstream.AccountInfo, error) {
	raw, err := jetstream.New(b.JS.Conn())
	if err != nil {
		return nil, err
	}
	return raw.AccountInfo(ctx)
}
