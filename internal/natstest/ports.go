package natstest

import (
	"fmt"
	"net"
)

// freePorts reserves n distinct TCP ports on 127.0.0.1 by listening on port
// 0 and releasing the listeners. JetStream clustering needs every node to
// know its routes before it starts, so the cluster ports are chosen up
// front; the short window between release and reuse is the usual price of
// that and is harmless on a test machine.
func freePorts(n int) ([]int, error) {
	listeners := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("reserve a free port on 127.0.0.1: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
