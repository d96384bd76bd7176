package discovery

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// Follow makes cfg build the stored set now and after every change, until
// ctx ends: each process of a deployment (stages, servers) follows the set
// the leading process scans, and a stage asked about a repository it has
// not heard of yet reloads it at once (config.RefreshDiscovered).
func Follow(ctx context.Context, store *KVStore, cfg *config.Config, log zerolog.Logger) error {
	refresh := func(ctx context.Context) error {
		set, err := store.Load(ctx)
		if err != nil {
			return err
		}
		if set != nil {
			Apply(cfg, set)
		}
		return nil
	}
	if err := refresh(ctx); err != nil {
		return err
	}
	cfg.SetDiscoveryRefresh(refresh)
	w, err := store.kv.Watch(ctx, setKey, jetstream.UpdatesOnly())
	if err != nil {
		return fmt.Errorf("follow the discovered set: %w", err)
	}
	go func() {
		defer w.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Updates():
				if !ok {
					return
				}
				if e == nil || e.Operation() != jetstream.KeyValuePut {
					continue
				}
				if set := decodeSet(e.Value()); set != nil {
					Apply(cfg, set)
					log.Debug().Int("repositories", len(cfg.Discovered())).Msg("discovered repositories updated")
				}
			}
		}
	}()
	return nil
}

// Discover scans the forges of cfg, stores the new set and applies it: the
// step before a build (direct mode) and on the sync schedule (daemon
// mode). It returns the set; a failed forge is in it, not an error. An
// error means the set could not be stored (it is applied all the same).
func Discover(ctx context.Context, s *Scanner, cfg *config.Config, store Store) (*Set, error) {
	prev, err := store.Load(ctx)
	if err != nil {
		s.Log.Warn().Err(err).Msg("last discovered set unreadable; scanning from scratch")
	}
	set := s.Scan(ctx, cfg, prev)
	Apply(cfg, set)
	if err := store.Save(ctx, set); err != nil {
		return set, err
	}
	return set, nil
}
