package daemon

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/metrics"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
	"github.com/docweave/docweave/workspace"
)

// stageHost runs a set of stages on a broker with the shared stores they
// need, observed by metrics.
type stageHost struct {
	metrics *metrics.Metrics
	builds  *buildstate.FanIns
	store   artifact.Store
	states  *buildstate.States
	stop    func()
}

// openStores provisions the pipeline's broker resources and opens the
// stores every part of a process shares.
func openStores(ctx context.Context, cfg *config.Config, broker *natsbroker.Broker) (*buildstate.FanIns, *buildstate.States, artifact.Store, error) {
	js := broker.JS
	if err := natsbroker.Provision(ctx, js, cfg.Build.StreamReplicas); err != nil {
		return nil, nil, nil, err
	}
	// Opening a bucket asks the cluster too, and can time out the same
	// way provisioning can while a fresh cluster settles.
	var builds *buildstate.FanIns
	var states *buildstate.States
	err := natsbroker.RetryWhileElecting(ctx, func(ctx context.Context) error {
		var err error
		if builds, err = buildstate.OpenFanIns(ctx, js); err != nil {
			return err
		}
		states, err = buildstate.OpenStates(ctx, js)
		return err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	store, err := pipeline.OpenArtifactStore(ctx, cfg, broker)
	if err != nil {
		return nil, nil, nil, err
	}
	return builds, states, store, nil
}

// startStages runs the named stages until stop is called; stop lets the
// handlers in flight finish.
func startStages(ctx context.Context, cfg *config.Config, broker *natsbroker.Broker, names []string, log zerolog.Logger) (*stageHost, error) {
	builds, states, store, err := openStores(ctx, cfg, broker)
	if err != nil {
		return nil, err
	}
	releaseWorkspace, err := claimWorkspace(cfg, log)
	if err != nil {
		return nil, err
	}
	followCtx, stopFollowing := context.WithCancel(context.WithoutCancel(ctx))
	if err := followDiscovered(followCtx, cfg, broker.JS, log); err != nil {
		stopFollowing()
		releaseWorkspace()
		return nil, err
	}
	stages, err := pipeline.NewStages(names, pipeline.Deps{
		Config: cfg, Store: store, FanIns: builds, States: states, Workspace: workspace.For(cfg).Root, Log: log,
	})
	if err != nil {
		stopFollowing()
		releaseWorkspace()
		return nil, err
	}
	m := metrics.New()
	m.SetConsumerLagSource(consumerLag(broker.JS, pipeline.Registered()))
	runner := pipeline.NewRunner(broker.JS, log, stages)
	runner.Observe = func(d pipeline.Delivery) { m.ObserveDelivery(d.Stage, d.Outcome, d.Duration) }
	runner.FanIns = builds
	if broker.Embedded() {
		// This process owns the broker and runs every stage on it: what
		// is in flight there was left by an earlier run of the daemon that
		// did not stop cleanly. It is dropped, at once.
		runner.DropBuildsBefore = dropStaleWork(ctx, broker.JS, stages, log)
	}
	runCtx, stopRunner := context.WithCancel(context.WithoutCancel(ctx))
	runnerDone := make(chan error, 1)
	go func() { runnerDone <- runner.Run(runCtx) }()
	var once sync.Once
	return &stageHost{metrics: m, builds: builds, store: store, states: states, stop: func() {
		once.Do(func() {
			stopRunner()
			<-runnerDone
			stopFollowing()
			releaseWorkspace()
		})
	}}, nil
}

// consumerLag reads the durable consumers of the named stages at scrape
// time, wherever the stages run.
func consumerLag(js roles.Consumers, names []string) func() map[string]metrics.ConsumerLag {
	return func() map[string]metrics.ConsumerLag {
		out := map[string]metrics.ConsumerLag{}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		for _, name := range names {
			c, err := js.Consumer(ctx, natsbroker.StreamName, pipeline.ConsumerName(name))
			if err != nil {
				continue
			}
			info, err := c.Info(ctx)
			if err != nil {
				continue
			}
			out[name] = metrics.ConsumerLag{Pending: info.NumPending, AckPending: uint64(info.NumAckPending), Redelivered: uint64(info.NumRedelivered)}
		}
		return out
	}
}

// claimWorkspace holds this process's workspace while its stages run; the
// first process on it removes what a killed one left (workspace.Claim).
func claimWorkspace(cfg *config.Config, log zerolog.Logger) (func(), error) {
	release, swept, err := workspace.For(cfg).Claim()
	if err != nil {
		return nil, err
	}
	if swept > 0 {
		log.Info().Int("entries_removed", swept).Msg("workspace: removed what an interrupted run left")
	}
	return release, nil
}
