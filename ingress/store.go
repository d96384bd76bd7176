package ingress

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// Store holds the snapshot being served. Sources publish projections into
// it; handlers read the current snapshot with one atomic load, so a request
// never waits for a rebuild and never sees half of one.
type Store struct {
	current    atomic.Pointer[Snapshot]
	generation atomic.Uint64
	lastErr    atomic.Pointer[error]
	metrics    *Metrics

	publish sync.Mutex // one rebuild at a time, so generations are ordered
}

// NewStore returns an empty store; it is not ready until the first Publish.
// metrics may be nil.
func NewStore(metrics *Metrics) *Store {
	return &Store{metrics: metrics}
}

// Current returns the snapshot being served, or nil before the source has
// synced.
func (s *Store) Current() *Snapshot { return s.current.Load() }

// Ready reports whether a listing has been published, which is what the
// /ready probe and the listing endpoint wait for.
func (s *Store) Ready() bool { return s.current.Load() != nil }

// Generation counts Publish calls, changed or not, so a caller can tell that
// a rebuild has happened after some event.
func (s *Store) Generation() uint64 { return s.generation.Load() }

// Publish makes p the served listing. When the new snapshot has the ETag of
// the current one the current one is kept, so clients see no change. It
// reports whether the served listing changed.
func (s *Store) Publish(p Projection) (*Snapshot, bool, error) {
	s.publish.Lock()
	defer s.publish.Unlock()
	next, err := NewSnapshot(p)
	if err != nil {
		s.ReportError(err)
		return nil, false, fmt.Errorf("publish ingress listing: %w", err)
	}
	s.lastErr.Store(nil)
	cur := s.current.Load()
	changed := cur == nil || cur.ETag != next.ETag
	if changed {
		s.current.Store(next)
	} else {
		next = cur
	}
	s.generation.Add(1)
	s.metrics.built(next, changed)
	return next, changed, nil
}

// ReportError records a failed attempt to read the source. The served
// listing stays as it was; LastError returns err until the next successful
// Publish.
func (s *Store) ReportError(err error) {
	s.lastErr.Store(&err)
	s.metrics.failed()
}

// LastError is the error of the last failed attempt to read the source, or
// nil when the last attempt succeeded.
func (s *Store) LastError() error {
	if p := s.lastErr.Load(); p != nil {
		return *p
	}
	return nil
}
