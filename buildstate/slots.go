package buildstate

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/nats-io/nats.go/jetstream"
)

// A join (the clone join of a build's units, or the join of their
// renders) keeps one small head record and one record per unit, its slot,
// under "<head key>.u.<unit>". The head holds a Tally: how many units the
// join waits for and a bit per unit that has arrived. So no record grows
// with the number of units beyond one bit each, and an arrival writes its
// own slot and one bit, never the others' outcomes.
//
// An arrival first writes its outcome into its slot (the first outcome
// wins), then sets its bit in the head with compare-and-set. Setting a bit
// twice changes nothing, so a redelivered arrival is harmless and still
// sees the join complete.

// Tally counts a join's arrivals in its head record.
type Tally struct {
	// Units is how many units the join waits for.
	Units int `json:"units"`
	// Bits has bit i set when the unit at index i has arrived.
	Bits []byte `json:"arrived_bits,omitempty"`
	// Arrived is the number of bits set.
	Arrived int `json:"arrived"`
}

// Complete reports whether every unit has arrived.
func (t *Tally) Complete() bool { return t.Arrived >= t.Units }

// set marks unit i arrived and reports whether that changed the tally.
func (t *Tally) set(i int) bool {
	if i < 0 || i >= t.Units {
		return false
	}
	if need := t.Units/8 + 1; len(t.Bits) < need {
		t.Bits = append(t.Bits, make([]byte, need-len(t.Bits))...)
	}
	if t.Bits[i/8]&(1<<(i%8)) != 0 {
		return false
	}
	t.Bits[i/8] |= 1 << (i % 8)
	t.Arrived++
	return true
}

// recount sets the tally to exactly the arrived slots.
func (t *Tally) recount(units int, slots []slotHead) {
	*t = Tally{Units: units}
	for _, s := range slots {
		if s.Arrived {
			t.set(s.Index)
		}
	}
}

// slot is one unit's record in a join: its place among the units (-1 once
// a later plan no longer expects it), what the plan said about it, and its
// outcome once it arrived.
type slot[P, O any] struct {
	Index   int    `json:"index"`
	Key     string `json:"key"`
	Planned *P     `json:"planned,omitempty"`
	Outcome *O     `json:"outcome,omitempty"`
}

// slotHead is what a tally needs of a slot.
type slotHead struct {
	Index   int
	Arrived bool
}

// slotKey is the key of a unit's slot below a join's head. Unit keys hold
// characters a key may not ("@", and dots that would split it), so they
// are encoded.
func slotKey(head, unit string) string {
	return head + ".u." + base64.RawURLEncoding.EncodeToString([]byte(unit))
}

// slots is the per-unit half of a join, with P the plan's word on a unit
// and O its outcome.
type slots[P, O any] struct {
	kv   jetstream.KeyValue
	head string
}

func (s slots[P, O]) read(ctx context.Context, unit string) (*slot[P, O], uint64, error) {
	return readRecord[slot[P, O]](ctx, s.kv, slotKey(s.head, unit), "unit "+unit+" of "+s.head)
}

// expect writes the slots of a plan: unit keys[i] gets index i and
// planned[i] (planned may be nil), and the outcome in known when it has
// none yet. A slot that exists (the plan is made again) keeps its outcome.
// It returns the keys that have an outcome.
func (s slots[P, O]) expect(ctx context.Context, keys []string, planned []P, known map[string]O) (map[string]bool, error) {
	arrived := map[string]bool{}
	for i, key := range keys {
		want := slot[P, O]{Index: i, Key: key}
		if planned != nil {
			want.Planned = &planned[i]
		}
		if o, ok := known[key]; ok {
			want.Outcome = &o
		}
		data, err := json.Marshal(want)
		if err != nil {
			return nil, err
		}
		if _, err := s.kv.Create(ctx, slotKey(s.head, key), data); err == nil {
			arrived[key] = want.Outcome != nil
			continue
		} else if !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, fmt.Errorf("expect unit %s: %w", key, err)
		}
		read := func(ctx context.Context) (*slot[P, O], uint64, error) { return s.read(ctx, key) }
		cur, err := casUpdate(ctx, s.kv, slotKey(s.head, key), read, func(cur *slot[P, O]) (bool, error) {
			if cur.Outcome == nil {
				cur.Outcome = want.Outcome
			}
			cur.Index, cur.Planned = want.Index, want.Planned
			return true, nil
		})
		if err != nil {
			return nil, fmt.Errorf("expect unit %s again: %w", key, err)
		}
		arrived[key] = cur.Outcome != nil
	}
	return arrived, nil
}

// forgetOthers marks every slot whose key is not in keys as no longer
// expected (index -1), so a plan made again without a unit leaves it out.
func (s slots[P, O]) forgetOthers(ctx context.Context, keys []string) error {
	all, err := s.list(ctx)
	if err != nil {
		return err
	}
	want := make(map[string]bool, len(keys))
	for _, k := range keys {
		want[k] = true
	}
	for _, sl := range all {
		if want[sl.Key] || sl.Index < 0 {
			continue
		}
		key := sl.Key
		read := func(ctx context.Context) (*slot[P, O], uint64, error) { return s.read(ctx, key) }
		if _, err := casUpdate(ctx, s.kv, slotKey(s.head, key), read, func(cur *slot[P, O]) (bool, error) {
			cur.Index = -1
			return true, nil
		}); err != nil {
			return fmt.Errorf("forget unit %s: %w", key, err)
		}
	}
	return nil
}

// arrive records a unit's outcome in its slot unless one is there (the
// first wins) and returns the slot as it is now. A unit without a slot is
// not expected by the join: nil, no error.
func (s slots[P, O]) arrive(ctx context.Context, unit string, o O) (*slot[P, O], error) {
	read := func(ctx context.Context) (*slot[P, O], uint64, error) { return s.read(ctx, unit) }
	cur, err := casUpdate(ctx, s.kv, slotKey(s.head, unit), read, func(cur *slot[P, O]) (bool, error) {
		if cur.Outcome != nil {
			return false, nil
		}
		cur.Outcome = &o
		return true, nil
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	return cur, err
}

// list reads every slot of the join, in index order (slots no longer
// expected last). It reads them all at once, for the join's end.
func (s slots[P, O]) list(ctx context.Context) ([]slot[P, O], error) {
	w, err := s.kv.Watch(ctx, s.head+".u.*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("list units of %s: %w", s.head, err)
	}
	defer w.Stop()
	var out []slot[P, O]
	for e := range w.Updates() {
		if e == nil {
			break
		}
		var sl slot[P, O]
		if err := json.Unmarshal(e.Value(), &sl); err != nil {
			return nil, &CorruptError{What: e.Key(), Err: err}
		}
		out = append(out, sl)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Index, out[j].Index
		if (a < 0) != (b < 0) {
			return b < 0
		}
		return a < b
	})
	return out, nil
}

// outcomes are the outcomes of the expected units, in index order.
func (s slots[P, O]) outcomes(ctx context.Context) ([]O, error) {
	all, err := s.list(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]O, 0, len(all))
	for _, sl := range all {
		if sl.Index >= 0 && sl.Outcome != nil {
			out = append(out, *sl.Outcome)
		}
	}
	return out, nil
}

// heads lists what a tally needs of every slot.
func (s slots[P, O]) heads(ctx context.Context) ([]slotHead, error) {
	all, err := s.list(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]slotHead, len(all))
	for i, sl := range all {
		out[i] = slotHead{Index: sl.Index, Arrived: sl.Outcome != nil}
	}
	return out, nil
}
