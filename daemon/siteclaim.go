package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// A site's processes announce themselves in the control bucket, one key
// each, renewed like the lease and gone leaseTTL after the process stops.
// That is how a daemon finds out that its site name is already in use on
// a shared broker by a process of another configuration, before its
// stages take a single message meant for that other site.
const processKeyPrefix = "process."

// Process roles as the records name them.
const (
	roleDaemon = "daemon"
	roleStage  = "stage"
	roleServe  = "serve"
)

// processRecord is what a process announces.
type processRecord struct {
	Role       string    `json:"role"`
	ConfigHash string    `json:"config_hash"`
	Host       string    `json:"host"`
	PID        int       `json:"pid"`
	StartedAt  time.Time `json:"started_at"`
	// Stages are the stages the process runs (none for a serve process).
	Stages []string `json:"stages,omitempty"`
}

func (r processRecord) describe() string {
	return fmt.Sprintf("a docweave %s (host %s, pid %d, started %s)", r.Role, r.Host, r.PID, r.StartedAt.Format(time.RFC3339))
}

// siteClaim is this process's record while it runs.
type siteClaim struct {
	stop func()
	// presence counts the live processes per stage, from every process's
	// record (this one's alone on a broker nobody else reaches).
	presence presence
}

// release removes the record, so a successor need not wait for it to
// expire.
func (c *siteClaim) release() {
	if c != nil && c.stop != nil {
		c.stop()
	}
}

// claimWait is how long a conflicting record is watched for a renewal
// before it counts as left behind by a process that died.
const claimWait = 2*leaseRenew + time.Second

// claimSite checks that no live process of another configuration uses this
// site's name on the broker, then announces this process and keeps its
// record fresh until release. A daemon shares its site with nobody of
// another configuration; a stage or serve process refuses only a daemon of
// another configuration (its peers may run an older configuration during a
// rolling update). On a broker that this process just embedded, records
// are left over from an earlier run and are cleared.
func claimSite(ctx context.Context, cfg *config.Config, broker *natsbroker.Broker, role string, stages []string, log zerolog.Logger) (*siteClaim, error) {
	if !broker.Shared() {
		// An in-process broker: nobody else is there.
		return &siteClaim{presence: presence{own: stages}}, nil
	}
	kv, err := openControlBucket(ctx, broker.JS, cfg.Build.StreamReplicas)
	if err != nil {
		return nil, err
	}
	own := processRecord{Role: role, ConfigHash: siteIdentity(cfg), PID: os.Getpid(), StartedAt: time.Now().UTC(), Stages: stages}
	own.Host, _ = os.Hostname()
	if broker.Embedded() {
		clearRecords(ctx, kv)
	} else if err := checkSite(ctx, kv, own, cfg.SiteName(), broker.Describe(), log); err != nil {
		return nil, err
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	key := processKeyPrefix + hex.EncodeToString(id[:])
	data, _ := json.Marshal(own)
	if _, err := kv.Put(ctx, key, data); err != nil {
		return nil, fmt.Errorf("announce this process in bucket %s: %w", ControlBucket, err)
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(leaseRenew)
		defer t.Stop()
		for {
			select {
			case <-rctx.Done():
				dctx, dcancel := context.WithTimeout(context.Background(), leaseRenew)
				_ = kv.Delete(dctx, key)
				dcancel()
				return
			case <-t.C:
				pctx, pcancel := context.WithTimeout(rctx, leaseRenew)
				if _, err := kv.Put(pctx, key, data); err != nil && rctx.Err() == nil {
					log.Debug().Err(err).Msg("process record not renewed")
				}
				pcancel()
			}
		}
	}()
	return &siteClaim{stop: func() { cancel(); <-done }, presence: presence{kv: kv}}, nil
}

// checkSite refuses when a live process of another configuration uses the
// site. A record that is not renewed within claimWait belongs to a process
// that died; it is not held against this one.
func checkSite(ctx context.Context, kv jetstream.KeyValue, own processRecord, site, broker string, log zerolog.Logger) error {
	conflicts := map[string]jetstream.KeyValueEntry{}
	for key, e := range readRecords(ctx, kv) {
		var r processRecord
		if json.Unmarshal(e.Value(), &r) != nil || r.ConfigHash == own.ConfigHash {
			continue
		}
		if own.Role != roleDaemon && r.Role != roleDaemon {
			log.Warn().Str("site", site).Str("other", r.describe()).Msg("another process of this site runs another configuration (a rolling update?)")
			continue
		}
		conflicts[key] = e
	}
	deadline := time.Now().Add(claimWait)
	for len(conflicts) > 0 {
		for key, seen := range conflicts {
			e, err := kv.Get(ctx, key)
			switch {
			case errors.Is(err, jetstream.ErrKeyNotFound):
				delete(conflicts, key)
			case err != nil:
				return fmt.Errorf("read process record %s: %w", key, err)
			case e.Revision() != seen.Revision():
				var r processRecord
				_ = json.Unmarshal(e.Value(), &r)
				return fmt.Errorf("site %q is already in use on broker %s by %s with another configuration (configuration hash %s…, this one %s…): give this configuration its own site.name, or stop that process",
					site, broker, r.describe(), short(r.ConfigHash), short(own.ConfigHash))
			}
		}
		if len(conflicts) == 0 || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	for key := range conflicts {
		log.Info().Str("site", site).Str("record", key).Msg("a process record was not renewed: its process is gone")
	}
	return nil
}

// readRecords returns the process records in the bucket.
func readRecords(ctx context.Context, kv jetstream.KeyValue) map[string]jetstream.KeyValueEntry {
	out := map[string]jetstream.KeyValueEntry{}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return out
	}
	for key := range keys.Keys() {
		if !strings.HasPrefix(key, processKeyPrefix) {
			continue
		}
		if e, err := kv.Get(ctx, key); err == nil {
			out[key] = e
		}
	}
	return out
}

// clearRecords removes the records an earlier run left behind.
func clearRecords(ctx context.Context, kv jetstream.KeyValue) {
	for key := range readRecords(ctx, kv) {
		_ = kv.Delete(ctx, key)
	}
}

// siteIdentity is the configuration hash without the settings that only
// say where one process keeps its files (output and workspace
// directories): two processes with equal identities build the same site.
func siteIdentity(cfg *config.Config) string {
	c := *cfg
	c.Output.Directory = ""
	c.Daemon.Storage = config.Storage{}
	c.Build.WorkspaceDir = ""
	return c.Hash()
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}
