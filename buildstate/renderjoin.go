package buildstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
)

// RenderJoin is a build's second fan-in: the units it renders (by
// events.UnitKey) and the outcome of each, kept in the builds bucket under
// "<build>.render" and updated with compare-and-set, as the clone join is.
type RenderJoin struct {
	BuildID string `json:"build_id"`
	// Spec is the artifact reference of the build's render spec.
	Spec string `json:"spec"`
	// Units are the units the build renders, with the content path and
	// address the plan gave each.
	Units    map[string]PlannedUnit        `json:"units"`
	Arrived  map[string]events.UnitOutcome `json:"arrived"`
	Complete bool                          `json:"-"`
}

// PlannedUnit is one unit of a render plan.
type PlannedUnit struct {
	Repository  string `json:"repository"`
	Version     string `json:"version,omitempty"`
	ContentPath string `json:"content_path"`
	Address     string `json:"address"`
}

// Outcomes returns the arrived outcomes in unit key order.
func (j *RenderJoin) Outcomes() []events.UnitOutcome {
	out := make([]events.UnitOutcome, 0, len(j.Arrived))
	for key, o := range j.Arrived {
		if _, planned := j.Units[key]; planned {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Key < out[b].Key })
	return out
}

func (j *RenderJoin) complete() bool {
	for key := range j.Units {
		if _, ok := j.Arrived[key]; !ok {
			return false
		}
	}
	return true
}

func renderKey(buildID string) string { return buildID + ".render" }

// BeginRender records a build's render plan with the outcomes known at
// once (units whose output was stored) and reports whether the join is
// already complete. Beginning again (a redelivered build.content_ready)
// keeps the first plan and every arrival since.
func (b *FanIns) BeginRender(ctx context.Context, j RenderJoin) (*RenderJoin, error) {
	if j.Arrived == nil {
		j.Arrived = map[string]events.UnitOutcome{}
	}
	data, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	if _, err := b.kv.Create(ctx, renderKey(j.BuildID), data); err == nil {
		j.Complete = j.complete()
		return &j, nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return nil, fmt.Errorf("begin render of build %s: %w", j.BuildID, err)
	}
	cur, _, err := b.getRender(ctx, j.BuildID)
	if err != nil {
		return nil, err
	}
	return cur, nil
}

// ArriveRender records one unit's outcome and reports whether every
// planned unit has one now. It is idempotent like Arrive: the first
// outcome of a unit wins, and a repeated arrival reports the current
// completeness, so the redelivered last arrival still completes the join.
func (b *FanIns) ArriveRender(ctx context.Context, buildID string, o events.UnitOutcome) (*RenderJoin, error) {
	read := func(ctx context.Context) (*RenderJoin, uint64, error) { return b.getRender(ctx, buildID) }
	j, err := casUpdate(ctx, b.kv, renderKey(buildID), read, func(j *RenderJoin) (bool, error) {
		if _, seen := j.Arrived[o.Key]; seen {
			return false, nil
		}
		j.Arrived[o.Key] = o
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("record unit %s in build %s: %w", o.Key, buildID, err)
	}
	j.Complete = j.complete()
	return j, nil
}

// Render reads a build's render join.
func (b *FanIns) Render(ctx context.Context, buildID string) (*RenderJoin, error) {
	j, _, err := b.getRender(ctx, buildID)
	return j, err
}

func (b *FanIns) getRender(ctx context.Context, buildID string) (*RenderJoin, uint64, error) {
	j, rev, err := readRecord[RenderJoin](ctx, b.kv, renderKey(buildID), "render of build "+buildID)
	if err != nil {
		return nil, 0, err
	}
	if j.Arrived == nil {
		j.Arrived = map[string]events.UnitOutcome{}
	}
	j.Complete = j.complete()
	return j, rev, nil
}
