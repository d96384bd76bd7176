package daemon

import (
	"context"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/discovery"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// scanTimeout bounds one scan of the forges, so a forge that hangs delays
// the scheduled build, never stops it.
const scanTimeout = 5 * time.Minute

// forgeScanner scans the forges for the process that leads the control
// plane — at start-up and on every tick of the sync schedule, before the
// build it requests — and stores the result, which every process follows.
type forgeScanner struct {
	cfg     *config.Config
	store   *discovery.KVStore
	scanner *discovery.Scanner
	log     zerolog.Logger
	mu      sync.Mutex // one scan at a time
}

// newForgeScanner opens the discovery bucket; nil without forges.
func newForgeScanner(cfg *config.Config, js roles.KeyValues, log zerolog.Logger) (*forgeScanner, error) {
	if len(cfg.Forges) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	store, err := discovery.OpenKV(ctx, js, cfg.Build.StreamReplicas)
	if err != nil {
		return nil, err
	}
	return &forgeScanner{cfg: cfg, store: store, log: log,
		scanner: &discovery.Scanner{Log: log, RegisterWebhooks: true}}, nil
}

// scan lists the forges and stores the set; failures are in the set (and
// so in /status and the next report), not returned.
func (f *forgeScanner) scan(reason string) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), scanTimeout)
	defer cancel()
	start := time.Now()
	set, err := discovery.Discover(ctx, f.scanner, f.cfg, f.store)
	if err != nil {
		f.log.Error().Err(err).Msg("discovered repositories not stored; other processes keep the previous set")
	}
	failed := 0
	for _, st := range set.Forges {
		if !st.OK {
			failed++
		}
	}
	f.log.Info().Str("reason", reason).Int("forges", len(set.Forges)).Int("failed", failed).
		Int("repositories", len(f.cfg.Discovered())).Dur("took", time.Since(start)).Msg("forges scanned")
}

// followDiscovered keeps this process's configuration at the set the
// leading process stores, until ctx ends; nothing without forges.
func followDiscovered(ctx context.Context, cfg *config.Config, js roles.KeyValues, log zerolog.Logger) error {
	if len(cfg.Forges) == 0 {
		return nil
	}
	store, err := discovery.OpenKV(ctx, js, cfg.Build.StreamReplicas)
	if err != nil {
		return err
	}
	return discovery.Follow(ctx, store, cfg, log)
}
