package assembly

import (
	"time"

	"github.com/rs/zerolog"
)

// phaseClock times the parts of one assembly, for its log line: what a
// push costs, part by part.
type phaseClock struct {
	last  time.Time
	names []string
	ms    []int64
}

func newPhaseClock() *phaseClock { return &phaseClock{last: time.Now()} }

// lap records the time since the previous lap under name; a name given
// again adds to its time.
func (c *phaseClock) lap(name string) {
	now := time.Now()
	d := now.Sub(c.last).Milliseconds()
	c.last = now
	for i, n := range c.names {
		if n == name {
			c.ms[i] += d
			return
		}
	}
	c.names, c.ms = append(c.names, name), append(c.ms, d)
}

// dict is the laps as a log dictionary, in the order first recorded.
func (c *phaseClock) dict() *zerolog.Event {
	d := zerolog.Dict()
	for i, n := range c.names {
		d = d.Int64(n, c.ms[i])
	}
	return d
}
