package daemon

import "context"

// Maintain runs work while no build runs or waits, and holds back builds
// asked for meanwhile: they coalesce into the follow-up build, which
// starts when work returns. It reports false, without running work, when
// a build runs or waits (the next build's end is the next chance).
//
// Pruning the broker's object store needs this: a build looks an object
// up (a unit's rendered output) well before it reads it, and an object
// removed in between would fail the build; with no build in flight, a
// removed object is simply stored or rendered again by the next one.
func (c *Coordinator) Maintain(work func()) bool {
	c.mu.Lock()
	if c.closed || c.running != nil || c.pending != nil || c.maintaining {
		c.mu.Unlock()
		return false
	}
	c.maintaining = true
	c.mu.Unlock()
	defer c.endMaintenance()
	work()
	return true
}

// endMaintenance starts the builds asked for while Maintain's work ran.
func (c *Coordinator) endMaintenance() {
	c.mu.Lock()
	c.maintaining = false
	next := c.pending
	if next == nil || c.closed || c.running != nil {
		c.mu.Unlock()
		return
	}
	c.pending = nil
	c.markRunning(next)
	c.mu.Unlock()
	if err := c.start(context.Background(), next); err != nil {
		c.log.Error().Err(err).Msg("could not start the build asked for while the artifact store was pruned")
	}
}
