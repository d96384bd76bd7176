package httpsrv

import (
	"net"
	"strconv"
	"strings"
	"testing"
)

func TestBindAllBindsEveryPortOrNone(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	busy := held.Addr().(*net.TCPAddr).Port

	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	freePort := free.Addr().(*net.TCPAddr).Port
	free.Close()

	_, err = BindAll([]Binding{{Server: "docs", Host: "127.0.0.1", Port: freePort}, {Server: "admin", Host: "127.0.0.1", Port: busy}})
	want := "admin port " + strconv.Itoa(busy) + ": "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("error %v, want %q… address already in use", err, want)
	}
	// The docs port bound first was released again.
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(freePort))
	if err != nil {
		t.Fatalf("the first port stayed bound after the failure: %v", err)
	}
	l.Close()

	_, err = BindAll([]Binding{{Server: "docs", Port: 9999}, {Server: "admin", Port: 9999}})
	if err == nil || !strings.Contains(err.Error(), "admin port 9999") || !strings.Contains(err.Error(), "docs") {
		t.Fatalf("duplicate ports: %v", err)
	}

	ls, err := BindAll([]Binding{{Server: "docs", Host: "127.0.0.1", Port: 0}, {Server: "admin", Host: "127.0.0.1", Port: 0}})
	if err != nil || len(ls) != 2 {
		t.Fatalf("random ports: %v", err)
	}
	for _, l := range ls {
		l.Close()
	}
}
