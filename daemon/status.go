package daemon

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/pipeline"
)

// ControlView is the control plane's view of a site as `docweave status`
// prints it, read from the broker: which process leads, every stage with
// its live processes and backlog, and the site last published.
type ControlView struct {
	// Leader names the process that coordinates builds ("" when none).
	Leader string
	// Processes are the site's live processes.
	Processes []ProcessView
	// Stages are every stage of the pipeline, in name order.
	Stages []StageView
	// Needed are the stages a build of this configuration waits on.
	Needed []string
	// Published is the ID of the newest build that published a site, and
	// State the state it saved (nil before the first).
	Published string
	State     *buildstate.SiteState
}

// ProcessView is one live process of the site.
type ProcessView struct {
	Role, Host string
	PID        int
	StartedAt  time.Time
	Stages     []string
}

// StageView is one stage: its live processes and its consumer's backlog.
type StageView struct {
	Name      string
	Processes int
	Lag       metrics.ConsumerLag
	// Consumer is false when the stage's consumer does not exist yet: no
	// process has ever run it on this broker.
	Consumer bool
}

// ReadControlView connects to the site's broker (broker.url, or the
// daemon's embedded broker where it listens) and reads the control plane's
// view of the site.
func ReadControlView(ctx context.Context, cfg *config.Config) (*ControlView, error) {
	broker, err := openSharedBroker(ctx, cfg, "docweave-status")
	if err != nil {
		return nil, err
	}
	defer broker.Close()
	v := &ControlView{}
	kv, err := broker.JS.KeyValue(ctx, ControlBucket)
	switch {
	case errors.Is(err, jetstream.ErrBucketNotFound):
		// No process of the site has announced itself yet.
	case err != nil:
		return nil, fmt.Errorf("open bucket %s: %w", ControlBucket, err)
	default:
		records, err := readProcessRecords(ctx, kv)
		if err != nil {
			return nil, err
		}
		for _, r := range records {
			v.Processes = append(v.Processes, ProcessView{Role: r.Role, Host: r.Host, PID: r.PID, StartedAt: r.StartedAt, Stages: r.Stages})
		}
		if e, err := kv.Get(ctx, leaderKey); err == nil {
			v.Leader = string(e.Value())
		}
	}
	live, err := presence{kv: kv}.live(ctx)
	if err != nil && kv != nil {
		return nil, err
	}
	lag := consumerLag(broker.JS, pipeline.Registered())()
	for _, name := range slices.Sorted(maps.Keys(live)) {
		l, ok := lag[name]
		v.Stages = append(v.Stages, StageView{Name: name, Processes: live[name], Lag: l, Consumer: ok})
	}
	needed, err := neededStages(cfg)
	if err != nil {
		return nil, err
	}
	v.Needed = slices.Sorted(maps.Keys(needed))
	if states, err := buildstate.OpenStates(ctx, broker.JS); err == nil {
		v.Published, _ = states.Published(ctx)
		v.State, _ = states.Load(ctx)
	}
	return v, nil
}
