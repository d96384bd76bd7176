package buildstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// BuildState is a build's shared state in the builds bucket: the
// request's flags, and the tally of the units (repositories, or versions of
// them, by events.UnitKey) it waits for. Each unit's outcome has a record
// of its own beside it (see Tally), so the record stays small whatever the
// number of units. Stages in different processes update it with
// compare-and-set, never in memory.
type BuildState struct {
	BuildID string `json:"build_id"`
	Reason  string `json:"reason"`
	Direct  bool   `json:"direct"`
	// VerifyLinks is the request's --verify-links, for the stages after
	// the site (they learn it from site.rendered).
	VerifyLinks bool   `json:"verify_links,omitempty"`
	ConfigHash  string `json:"config_hash"`
	// AcquisitionHash is config.AcquisitionHash: the part of the
	// configuration that decides the documentation trees.
	AcquisitionHash string         `json:"acquisition_hash,omitempty"`
	StartedAt       time.Time      `json:"started_at"`
	Tally           Tally          `json:"tally"`
	Timings         events.Timings `json:"timings"` // discover's own time
	// Redeliveries counts, per stage, messages of this build that were
	// delivered again (a process died or a transient error was retried).
	Redeliveries map[string]int `json:"redeliveries,omitempty"`
	// Abandoned says why the daemon gave up on the build (a stage no
	// process runs, say): its site must not be published when its work
	// resumes later.
	Abandoned string `json:"abandoned,omitempty"`
}

func (s *BuildState) tally() *Tally { return &s.Tally }

// Complete reports whether every expected unit has an outcome.
func (s *BuildState) Complete() bool { return s.Tally.Complete() }

// FanIns keeps, in the builds bucket, each build's fan-in record (its
// BuildState): which units the build expects and which have arrived, so
// that stage replicas in any process agree on the one arrival that
// completes the build's acquisition, or its render.
type FanIns struct {
	kv jetstream.KeyValue
}

// OpenFanIns binds the (provisioned) builds bucket.
func OpenFanIns(ctx context.Context, js roles.KeyValues) (*FanIns, error) {
	kv, err := js.KeyValue(ctx, BuildsBucket)
	if err != nil {
		return nil, fmt.Errorf("open bucket %s: %w", BuildsBucket, err)
	}
	return &FanIns{kv: kv}, nil
}

// Begin records a new build that waits for the units named by expected.
// Beginning the same build again (a redelivered build.requested) keeps
// the first record and its arrivals, but takes the new set of expected
// units: with versioning, discover may find other branches and tags the
// second time, and the jobs it sends then are the ones the join must wait
// for.
func (b *FanIns) Begin(ctx context.Context, st BuildState, expected []string) error {
	if _, _, err := beginJoin(ctx, b.cloneSlots(st.BuildID), &st, expected, nil, nil); err != nil {
		return fmt.Errorf("begin build %s: %w", st.BuildID, err)
	}
	return nil
}

// cloneSlots are the per-unit records of a build's clone join.
func (b *FanIns) cloneSlots(buildID string) slots[struct{}, events.RepoOutcome] {
	return slots[struct{}, events.RepoOutcome]{kv: b.kv, head: buildID}
}

// Get reads a build's state.
func (b *FanIns) Get(ctx context.Context, buildID string) (*BuildState, error) {
	st, _, err := b.get(ctx, buildID)
	return st, err
}

func (b *FanIns) get(ctx context.Context, buildID string) (*BuildState, uint64, error) {
	return readRecord[BuildState](ctx, b.kv, buildID, "build "+buildID)
}

// NoteRedelivery counts a repeated delivery of one of the build's messages
// to stage, so the report can show that work was taken over or retried.
func (b *FanIns) NoteRedelivery(ctx context.Context, buildID, stage string) error {
	_, err := casUpdate(ctx, b.kv, buildID, b.reader(buildID), func(st *BuildState) (bool, error) {
		if st.Redeliveries == nil {
			st.Redeliveries = map[string]int{}
		}
		st.Redeliveries[stage]++
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("note redelivery in build %s: %w", buildID, err)
	}
	return nil
}

// Arrive records one unit's outcome (under its events.UnitKey) and returns
// the outcome kept for it and whether the build is now complete. It is
// idempotent: an outcome that already arrived is kept (the first one wins)
// and the current completeness is reported, so the redelivered last
// arrival still completes the join. Concurrent arrivals retry on revision
// conflicts. A unit the build does not expect is not recorded; its own
// outcome is returned.
func (b *FanIns) Arrive(ctx context.Context, buildID string, o events.RepoOutcome) (events.RepoOutcome, bool, error) {
	kept, st, err := arriveJoin[BuildState, *BuildState](ctx, b.cloneSlots(buildID), o.Key(), o)
	if err != nil {
		return o, false, fmt.Errorf("record %s in build %s: %w", o.Key(), buildID, err)
	}
	if kept == nil {
		kept = &o
	}
	return *kept, st.Complete(), nil
}

// Outcomes returns the outcomes of the build's expected units, sorted by
// repository name, then version name. It reads every unit's record: call
// it once the join is complete.
func (b *FanIns) Outcomes(ctx context.Context, buildID string) ([]events.RepoOutcome, error) {
	out, err := b.cloneSlots(buildID).outcomes(ctx)
	if err != nil {
		return nil, fmt.Errorf("outcomes of build %s: %w", buildID, err)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Repository != out[j].Repository {
			return out[i].Repository < out[j].Repository
		}
		return out[i].Key() < out[j].Key()
	})
	return out, nil
}

// Abandon records that the build was given up on, and why. A build whose
// discover never ran has no record yet: one is made, which Begin keeps.
func (b *FanIns) Abandon(ctx context.Context, buildID, why string) error {
	data, err := json.Marshal(BuildState{BuildID: buildID, Abandoned: why})
	if err != nil {
		return err
	}
	if _, err := b.kv.Create(ctx, buildID, data); err == nil {
		return nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("abandon build %s: %w", buildID, err)
	}
	if _, err := casUpdate(ctx, b.kv, buildID, b.reader(buildID), func(st *BuildState) (bool, error) {
		st.Abandoned = why
		return true, nil
	}); err != nil {
		return fmt.Errorf("abandon build %s: %w", buildID, err)
	}
	return nil
}

// reader reads one build's record for casUpdate.
func (b *FanIns) reader(buildID string) func(context.Context) (*BuildState, uint64, error) {
	return func(ctx context.Context) (*BuildState, uint64, error) { return b.get(ctx, buildID) }
}
