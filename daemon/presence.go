package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/stages"
)

// Every process of a site announces the stages it runs in its record in
// the control bucket (processRecord.Stages, renewed every leaseRenew and
// gone leaseTTL after the process stops). From those records the control
// plane knows, per stage, how many live processes run it: /status,
// /metrics and `docweave status` show every stage, 0 included, and a build
// that waits on a stage nobody runs fails with STAGE_UNAVAILABLE instead
// of running forever.

// presence counts the live processes per stage.
type presence struct {
	// kv is the control bucket; nil on a broker no other process can
	// reach, where this process runs every stage it has.
	kv  jetstream.KeyValue
	own []string
}

// live returns, for every registered stage, the number of live processes
// that run it (0 included).
func (p presence) live(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	for _, name := range pipeline.Registered() {
		out[name] = 0
	}
	if p.kv == nil {
		for _, name := range p.own {
			out[name]++
		}
		return out, nil
	}
	records, err := readProcessRecords(ctx, p.kv)
	if err != nil {
		return nil, err
	}
	for _, r := range records {
		for _, name := range r.Stages {
			out[name]++
		}
	}
	return out, nil
}

// readProcessRecords decodes the live processes' records.
func readProcessRecords(ctx context.Context, kv jetstream.KeyValue) ([]processRecord, error) {
	w, err := kv.Watch(ctx, processKeyPrefix+"*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("read the processes in bucket %s: %w", ControlBucket, err)
	}
	defer w.Stop()
	var out []processRecord
	for e := range w.Updates() {
		if e == nil {
			break
		}
		var r processRecord
		if json.Unmarshal(e.Value(), &r) == nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// neededStages are the stages a build of cfg waits on, each with the
// subjects it consumes (as the stages declare them): every registered
// stage, but link verification only where it is on.
func neededStages(cfg *config.Config) (map[string][]string, error) {
	declared, err := pipeline.NewStages(pipeline.Registered(), pipeline.Deps{Config: cfg, Log: zerolog.Nop()})
	if err != nil {
		return nil, fmt.Errorf("read the stages' declarations: %w", err)
	}
	out := map[string][]string{}
	for _, st := range declared {
		if st.Name == stages.VerifyLinks && !cfg.Daemon.LinkVerification.Enabled {
			continue
		}
		out[st.Name] = slices.Clone(st.Subjects)
	}
	return out, nil
}

// uncovered lists the needed stages that no live process runs.
func uncovered(live map[string]int, needed map[string][]string) []string {
	var out []string
	for name := range needed {
		if live[name] == 0 {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// unavailableMessage is STAGE_UNAVAILABLE's text: the stage, the subjects
// its work waits on, and how to start it.
func unavailableMessage(stage string, subjects []string, waited string) string {
	return fmt.Sprintf("no live process runs stage %s: the build waited %s with its work on %s; start one with `docweave stage %s` (or add %s to a stage process's list) and trigger the build again",
		stage, waited, strings.Join(subjects, ", "), stage, stage)
}

// warnUncovered warns, once the processes starting together have had time
// to announce themselves, when the live processes leave a stage a build
// needs uncovered: builds would wait on it, then fail with
// STAGE_UNAVAILABLE.
func warnUncovered(ctx context.Context, cfg *config.Config, p presence, log zerolog.Logger) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(leaseRenew + time.Second):
	}
	needed, err := neededStages(cfg)
	if err != nil {
		return
	}
	live, err := p.live(ctx)
	if err != nil {
		log.Debug().Err(err).Msg("stage processes not read")
		return
	}
	for _, stage := range uncovered(live, needed) {
		log.Warn().Str("stage", stage).Strs("subjects", needed[stage]).
			Msgf("no live process runs stage %s: builds will wait on it and fail after build.stage_timeout (%s); start `docweave stage %s` or add it to a process's list", stage, cfg.Build.StageTimeout, stage)
	}
}
