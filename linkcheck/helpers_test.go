package linkcheck

import (
	"context"
	"net"
	"testing"
)

// startNXDomainServer runs a real DNS server on loopback UDP that answers
// every question with NXDOMAIN ("no such name"), and returns a resolver
// that asks it — so "unknown host" is tested without the machine's DNS.
func startNXDomainServer(t *testing.T) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, addr, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n < 12 {
				continue
			}
			end := questionEnd(buf[:n])
			if end < 0 {
				continue
			}
			resp := make([]byte, end)
			copy(resp, buf[:end])
			resp[2] = 0x80 | (buf[2] & 0x01) // QR, keep RD
			resp[3] = 0x80 | 0x03            // RA, RCODE 3 = NXDOMAIN
			resp[6], resp[7] = 0, 0          // no answers
			resp[8], resp[9] = 0, 0
			resp[10], resp[11] = 0, 0
			_, _ = pc.WriteTo(resp, addr)
		}
	}()
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

// questionEnd returns where the first question of a DNS message ends (name
// labels, then type and class), or -1.
func questionEnd(msg []byte) int {
	i := 12
	for i < len(msg) {
		l := int(msg[i])
		if l == 0 {
			i++
			break
		}
		i += 1 + l
	}
	if i+4 > len(msg) {
		return -1
	}
	return i + 4
}
