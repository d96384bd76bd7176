package buildstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
)

// BuildState is a build's shared state in the builds bucket: which units
// (repositories, or versions of them, by events.UnitKey) it waits for and
// the outcome of each that arrived. Stages in
// different processes update it with compare-and-set, never in memory.
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
	AcquisitionHash string                        `json:"acquisition_hash,omitempty"`
	StartedAt       time.Time                     `json:"started_at"`
	Expected        []string                      `json:"expected"`
	Arrived         map[string]events.RepoOutcome `json:"arrived"`
	Timings         events.Timings                `json:"timings"` // discover's own time
	// Redeliveries counts, per stage, messages of this build that were
	// delivered again (a process died or a transient error was retried).
	Redeliveries map[string]int `json:"redeliveries,omitempty"`
}

// Complete reports whether every expected unit has an outcome.
func (s *BuildState) Complete() bool {
	for _, name := range s.Expected {
		if _, ok := s.Arrived[name]; !ok {
			return false
		}
	}
	return true
}

// Outcomes returns the arrived outcomes sorted by repository name, then
// version name.
// Only expected units count: an arrival for a unit the build no longer
// expects (see Begin) is left out.
func (s *BuildState) Outcomes() []events.RepoOutcome {
	out := make([]events.RepoOutcome, 0, len(s.Expected))
	for _, key := range s.Expected {
		if o, ok := s.Arrived[key]; ok {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Repository != out[j].Repository {
			return out[i].Repository < out[j].Repository
		}
		return out[i].Key() < out[j].Key()
	})
	return out
}

// FanIns keeps, in the builds bucket, each build's fan-in record (its
// BuildState): which units the build expects and which have arrived, so
// that stage replicas in any process agree on the one arrival that
// completes the build's acquisition, or its render.
type FanIns struct {
	kv jetstream.KeyValue
}

// OpenFanIns binds the (provisioned) builds bucket.
func OpenFanIns(ctx context.Context, js jetstream.JetStream) (*FanIns, error) {
	kv, err := js.KeyValue(ctx, BuildsBucket)
	if err != nil {
		return nil, fmt.Errorf("open bucket %s: %w", BuildsBucket, err)
	}
	return &FanIns{kv: kv}, nil
}

// Begin records a new build. Beginning the same build again (a redelivered
// build.requested) keeps the first record and its arrivals, but takes the
// new set of expected units: with versioning, discover may find other
// branches and tags the second time, and the jobs it sends then are the
// ones the join must wait for.
func (b *FanIns) Begin(ctx context.Context, st BuildState) error {
	if st.Arrived == nil {
		st.Arrived = map[string]events.RepoOutcome{}
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = b.kv.Create(ctx, st.BuildID, data)
	if err == nil {
		return nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("begin build %s: %w", st.BuildID, err)
	}
	_, err = casUpdate(ctx, b.kv, st.BuildID, b.reader(st.BuildID), func(cur *BuildState) (bool, error) {
		if slices.Equal(cur.Expected, st.Expected) {
			return false, nil
		}
		cur.Expected = st.Expected
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("begin build %s again: %w", st.BuildID, err)
	}
	return nil
}

// Get reads a build's state.
func (b *FanIns) Get(ctx context.Context, buildID string) (*BuildState, error) {
	st, _, err := b.get(ctx, buildID)
	return st, err
}

func (b *FanIns) get(ctx context.Context, buildID string) (*BuildState, uint64, error) {
	st, rev, err := readRecord[BuildState](ctx, b.kv, buildID, "build "+buildID)
	if err != nil {
		return nil, 0, err
	}
	if st.Arrived == nil {
		st.Arrived = map[string]events.RepoOutcome{}
	}
	return st, rev, nil
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

// Arrive records one unit's outcome (under its events.UnitKey) and reports whether the build is
// now complete. It is idempotent: an outcome that already arrived is kept
// (the first one wins) and the current completeness is reported, so the
// redelivered last arrival still completes the join. Concurrent arrivals
// retry on revision conflicts.
func (b *FanIns) Arrive(ctx context.Context, buildID string, o events.RepoOutcome) (*BuildState, bool, error) {
	st, err := casUpdate(ctx, b.kv, buildID, b.reader(buildID), func(st *BuildState) (bool, error) {
		if _, seen := st.Arrived[o.Key()]; seen {
			return false, nil
		}
		st.Arrived[o.Key()] = o
		return true, nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("record %s in build %s: %w", o.Key(), buildID, err)
	}
	return st, st.Complete(), nil
}

// reader reads one build's record for casUpdate.
func (b *FanIns) reader(buildID string) func(context.Context) (*BuildState, uint64, error) {
	return func(ctx context.Context) (*BuildState, uint64, error) { return b.get(ctx, buildID) }
}
