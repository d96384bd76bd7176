package livereload

import (
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// BenchmarkPublish measures one reload event fanned out to N subscribers
// (no network). Each iteration also takes the frame out of every queue, as
// the streams would, so no subscriber is ever dropped.
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			hub := NewHub(Options{Log: zerolog.Nop()})
			defer hub.Close()
			clients := make([]*client, n)
			for i := range clients {
				c, _, err := hub.subscribe("", "bench")
				if err != nil {
					b.Fatal(err)
				}
				clients[i] = c
			}
			ev := Event{Name: EventReload, Data: Reload{BuildID: "b", Site: "sha256:0123", Pages: 250, Time: time.Unix(0, 0).UTC()}}
			b.ReportAllocs()
			for b.Loop() {
				hub.Publish(ev)
				for _, c := range clients {
					<-c.frames
				}
			}
			if hub.Clients() != n {
				b.Fatalf("%d of %d clients dropped", n-hub.Clients(), n)
			}
		})
	}
}
