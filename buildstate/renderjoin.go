package buildstate

import (
	"context"
	"fmt"
	"sort"

	"github.com/docweave/docweave/events"
)

// RenderJoin is a build's second fan-in: the units it renders (by
// events.UnitKey) and the outcome of each, kept in the builds bucket under
// "<build>.render" with a record per unit beside it (see Tally), updated
// with compare-and-set, as the clone join is.
type RenderJoin struct {
	BuildID string `json:"build_id"`
	// Spec is the artifact reference of the build's render spec.
	Spec string `json:"spec"`
	// Outcomes is the artifact reference of the units' acquisition
	// outcomes the plan was made from (build.content_ready's), and
	// OutcomeCount their number: the site's report names every unit.
	Outcomes     string `json:"outcomes"`
	OutcomeCount int    `json:"outcome_count"`
	Tally        Tally  `json:"tally"`
	// Complete is set when every planned unit has an outcome.
	Complete bool `json:"-"`
}

func (j *RenderJoin) tally() *Tally { return &j.Tally }

// PlannedUnit is one unit of a render plan.
type PlannedUnit struct {
	Key         string `json:"key"`
	Repository  string `json:"repository"`
	Version     string `json:"version,omitempty"`
	ContentPath string `json:"content_path"`
	Address     string `json:"address"`
}

func renderKey(buildID string) string { return buildID + ".render" }

func (b *FanIns) renderSlots(buildID string) slots[PlannedUnit, events.UnitOutcome] {
	return slots[PlannedUnit, events.UnitOutcome]{kv: b.kv, head: renderKey(buildID)}
}

// BeginRender records a build's render plan (its units, in order) with
// the outcomes known at once (units whose output was stored), and returns
// the join and the keys of the units that have an outcome. Beginning
// again (a redelivered build.content_ready) keeps the first record and
// every arrival since.
func (b *FanIns) BeginRender(ctx context.Context, j RenderJoin, units []PlannedUnit, stored map[string]events.UnitOutcome) (*RenderJoin, map[string]bool, error) {
	keys := make([]string, len(units))
	for i, u := range units {
		keys[i] = u.Key
	}
	cur, arrived, err := beginJoin(ctx, b.renderSlots(j.BuildID), &j, keys, units, stored)
	if err != nil {
		return nil, nil, fmt.Errorf("begin render of build %s: %w", j.BuildID, err)
	}
	cur.Complete = cur.Tally.Complete()
	return cur, arrived, nil
}

// ArriveRender records one unit's outcome and reports whether every
// planned unit has one now. It is idempotent like Arrive: the first
// outcome of a unit wins, and a repeated arrival reports the current
// completeness, so the redelivered last arrival still completes the join.
func (b *FanIns) ArriveRender(ctx context.Context, buildID string, o events.UnitOutcome) (*RenderJoin, error) {
	_, j, err := arriveJoin[RenderJoin, *RenderJoin](ctx, b.renderSlots(buildID), o.Key, o)
	if err != nil {
		return nil, fmt.Errorf("record unit %s in build %s: %w", o.Key, buildID, err)
	}
	j.Complete = j.Tally.Complete()
	return j, nil
}

// Render reads a build's render join.
func (b *FanIns) Render(ctx context.Context, buildID string) (*RenderJoin, error) {
	j, _, err := readRecord[RenderJoin](ctx, b.kv, renderKey(buildID), "render of build "+buildID)
	if err != nil {
		return nil, err
	}
	j.Complete = j.Tally.Complete()
	return j, nil
}

// RenderOutcomes returns the outcomes of the planned units in unit key
// order. It reads every unit's record: call it once the join is complete.
func (b *FanIns) RenderOutcomes(ctx context.Context, buildID string) ([]events.UnitOutcome, error) {
	out, err := b.renderSlots(buildID).outcomes(ctx)
	if err != nil {
		return nil, fmt.Errorf("render outcomes of build %s: %w", buildID, err)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Key < out[b].Key })
	return out, nil
}
