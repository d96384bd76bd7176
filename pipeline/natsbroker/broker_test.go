package natsbroker

import (
	"context"
	"strings"
	"testing"
)

func TestParseBrokerURL(t *testing.T) {
	servers, user, pass, err := ParseURL("nats://alice:s3cret@10.0.0.1:4222, nats://alice:s3cret@10.0.0.2:4222")
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2 || user != "alice" || pass != "s3cret" {
		t.Fatalf("got %v %q %q", servers, user, pass)
	}
	for _, s := range servers {
		if strings.Contains(s, "s3cret") {
			t.Fatalf("server URL kept the password: %s", s)
		}
	}
	for _, bad := range []string{"", "http://x:1", "nats://a:b@h:1,nats://c:d@h:2", "::"} {
		if _, _, _, err := ParseURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		} else if strings.Contains(err.Error(), ":b@") {
			t.Errorf("error leaks a password: %v", err)
		}
	}
}

func TestRedactBrokerURL(t *testing.T) {
	got := RedactURL("tls://bob:hunter2@a:4222,nats://b:4222")
	if strings.Contains(got, "hunter2") || !strings.Contains(got, "b:4222") {
		t.Fatalf("redacted %q", got)
	}
}

// TestExternalBrokerWithCredentials runs a listening embedded server with a
// user and password and connects to it as an external broker would be.
func TestExternalBrokerWithCredentials(t *testing.T) {
	ctx := context.Background()
	srv := startTestServer(t, "alice", "s3cret")
	url := strings.Replace(srv.ClientURL(), "nats://", "nats://alice:s3cret@", 1)
	b, err := Open(ctx, Options{URL: url + ",nats://127.0.0.1:1", Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := accountInfo(ctx, b); err != nil {
		t.Fatalf("jetstream over the external connection: %v", err)
	}
	wrong := strings.Replace(srv.ClientURL(), "nats://", "nats://alice:wrong@", 1)
	if _, err := Open(ctx, Options{URL: wrong}); err == nil {
		t.Fatal("wrong password accepted")
	} else if strings.Contains(err.Error(), "wrong") {
		t.Fatalf("error leaks the password: %v", err)
	}
}

func TestEmbeddedInProcessDoesNotListen(t *testing.T) {
	b, err := Open(context.Background(), Options{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.ClientURL() != "" {
		t.Fatalf("in-process broker listens at %s", b.ClientURL())
	}
	if _, err := accountInfo(context.Background(), b); err != nil {
		t.Fatal(err)
	}
}
