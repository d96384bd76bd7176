package buildstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// tallied is a join's head record: it holds the join's Tally.
type tallied interface{ tally() *Tally }

// beginJoin writes a join's slots (keys in order, with what the plan says
// of each and the outcomes known at once) and its head, and returns the
// head and the keys that have an outcome. Beginning again (a redelivered
// message) keeps the head's first record, takes the new set of units and
// every outcome that arrived, and counts the arrivals again.
func beginJoin[H any, PH interface {
	*H
	tallied
}, P, O any](ctx context.Context, sl slots[P, O], head PH, keys []string, planned []P, known map[string]O) (PH, map[string]bool, error) {
	arrived, err := sl.expect(ctx, keys, planned, known)
	if err != nil {
		return nil, nil, err
	}
	t := head.tally()
	*t = Tally{Units: len(keys)}
	for i, k := range keys {
		if arrived[k] {
			t.set(i)
		}
	}
	data, err := json.Marshal(head)
	if err != nil {
		return nil, nil, err
	}
	if _, err := sl.kv.Create(ctx, sl.head, data); err == nil {
		return head, arrived, nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return nil, nil, fmt.Errorf("begin %s: %w", sl.head, err)
	}
	if err := sl.forgetOthers(ctx, keys); err != nil {
		return nil, nil, err
	}
	cur, err := recount[H, PH](ctx, sl, len(keys))
	if err != nil {
		return nil, nil, fmt.Errorf("begin %s again: %w", sl.head, err)
	}
	return cur, arrived, nil
}

// recount sets a join's tally to the slots that have an outcome, listing
// them again on every attempt, so an arrival that lands in between is
// counted either by the listing or by its own bit set after the write.
// units < 0 keeps the head's number of units.
func recount[H any, PH interface {
	*H
	tallied
}, P, O any](ctx context.Context, sl slots[P, O], units int) (PH, error) {
	h, err := casUpdate(ctx, sl.kv, sl.head, headReader[H](sl.kv, sl.head), func(h *H) (bool, error) {
		heads, err := sl.heads(ctx)
		if err != nil {
			return false, err
		}
		t := PH(h).tally()
		n := units
		if n < 0 {
			n = t.Units
		}
		t.recount(n, heads)
		return true, nil
	})
	return PH(h), err
}

// arriveJoin records unit's outcome (the first one wins) and sets its bit.
// It returns the unit's kept outcome (nil for a unit the join does not
// expect) and the head as it is now. When the tally says complete, the
// slots are read to confirm it: an arrival that took its place from a
// plan made again is recounted rather than trusted.
func arriveJoin[H any, PH interface {
	*H
	tallied
}, P, O any](ctx context.Context, sl slots[P, O], unit string, o O) (*O, PH, error) {
	s, err := sl.arrive(ctx, unit, o)
	if err != nil {
		return nil, nil, err
	}
	read := headReader[H](sl.kv, sl.head)
	if s == nil || s.Index < 0 {
		head, _, err := read(ctx)
		return nil, PH(head), err
	}
	h, err := casUpdate(ctx, sl.kv, sl.head, read, func(h *H) (bool, error) {
		return PH(h).tally().set(s.Index), nil
	})
	if err != nil {
		return nil, nil, err
	}
	head := PH(h)
	if head.tally().Complete() {
		heads, err := sl.heads(ctx)
		if err != nil {
			return nil, nil, err
		}
		if !allArrived(heads, head.tally().Units) {
			if head, err = recount[H, PH](ctx, sl, -1); err != nil {
				return nil, nil, err
			}
		}
	}
	return s.Outcome, head, nil
}

// allArrived reports whether every index below units has an arrived slot.
func allArrived(heads []slotHead, units int) bool {
	seen := 0
	for _, h := range heads {
		if h.Index >= 0 && h.Index < units && h.Arrived {
			seen++
		}
	}
	return seen >= units
}

// headReader reads a join's head record for casUpdate.
func headReader[H any](kv jetstream.KeyValue, key string) func(context.Context) (*H, uint64, error) {
	return func(ctx context.Context) (*H, uint64, error) { return readRecord[H](ctx, kv, key, key) }
}
