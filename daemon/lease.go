package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// ControlBucket holds the control-plane lease of a split deployment (the
// key "leader", the leading process's name) and a record per process of
// the site on a shared broker ("process.<id>", see claimSite); both expire
// unless renewed.
const ControlBucket = "docweave-control"

const (
	leaderKey = "leader"
	// leaseTTL is how long a lease lasts without renewal: how long the
	// other processes wait before taking over from a leader that died.
	leaseTTL = 10 * time.Second
	// leaseRenew is how often the leader renews, and how often the others
	// try to take a free lease.
	leaseRenew = 2 * time.Second
)

// openControlBucket provisions the lease bucket: its values expire after
// leaseTTL, which is what frees the lease of a leader that died.
func openControlBucket(ctx context.Context, js roles.KeyValues, replicas int) (jetstream.KeyValue, error) {
	if replicas < 1 {
		replicas = 1
	}
	var kv jetstream.KeyValue
	err := natsbroker.RetryWhileElecting(ctx, func(ctx context.Context) error {
		var err error
		kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:      ControlBucket,
			Description: "docweave control plane: the lease of the coordinating process, and the site's live processes",
			History:     1,
			TTL:         leaseTTL,
			Storage:     jetstream.FileStorage,
			Replicas:    replicas,
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("provision bucket %s: %w", ControlBucket, err)
	}
	return kv, nil
}

// handBack deletes the lease if this process still holds it. The key is
// read first: a renewal cut short by the stop may have been applied
// without this process learning its revision, or applied between the read
// and the delete; so a delete refused for its revision is tried again with
// the key read afresh. It returns whether the lease was handed back (false
// when another process holds it, or the broker did not answer in time:
// the lease then expires after leaseTTL).
func handBack(kv jetstream.KeyValue, holder string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), leaseTTL/2)
	defer cancel()
	for try := 0; try < 3; try++ {
		e, err := kv.Get(ctx, leaderKey)
		if err != nil || string(e.Value()) != holder {
			return false
		}
		if err := kv.Delete(ctx, leaderKey, jetstream.LastRevision(e.Revision())); err == nil {
			return true
		}
	}
	return false
}

// leaseHolder names this process in the lease, for operators reading it
// with `nats kv get docweave-control leader`.
func leaseHolder() string {
	host, _ := os.Hostname()
	return host + "/" + strconv.Itoa(os.Getpid()) + "/" + strconv.FormatInt(time.Now().UnixNano(), 36)
}

// runLease campaigns for the lease until ctx ends: it takes the lease when
// it is free (Create succeeds only on an absent or expired key) and renews
// it while leading (Update succeeds only at the revision it last wrote).
// A leader steps down at once when another process holds the lease, and
// when renewals have failed for so long (a broker node lost, say) that
// the lease may have expired: a renewal that merely failed once does not
// cost the build in flight. onElected and onDeposed run on this goroutine.
// When ctx ends, a leader steps down and deletes the key, so another
// process takes over without waiting for the lease to expire.
func runLease(ctx context.Context, kv jetstream.KeyValue, holder string, log zerolog.Logger, onElected, onDeposed func()) {
	var rev uint64
	var renewed time.Time
	leading := false
	attempt := func() {
		actx, cancel := context.WithTimeout(ctx, leaseRenew)
		defer cancel()
		if leading {
			r, err := kv.Update(actx, leaderKey, []byte(holder), rev)
			if err == nil {
				rev, renewed = r, time.Now()
				return
			}
			taken := errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyNotFound)
			if !taken && time.Since(renewed) < leaseTTL-leaseRenew {
				log.Warn().Err(err).Msg("control-plane lease not renewed; trying again")
				return
			}
			leading = false
			log.Warn().Err(err).Str("holder", holder).Msg("control-plane lease lost; this process stops coordinating builds")
			onDeposed()
			return
		}
		r, err := kv.Create(actx, leaderKey, []byte(holder))
		switch {
		case err == nil:
			rev, leading, renewed = r, true, time.Now()
			log.Info().Str("holder", holder).Msg("control-plane lease taken; this process coordinates builds")
			onElected()
		case !errors.Is(err, jetstream.ErrKeyExists) && ctx.Err() == nil:
			log.Debug().Err(err).Msg("control-plane lease not taken")
		}
	}
	attempt()
	tick := time.NewTicker(leaseRenew)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			if leading {
				onDeposed()
				if handBack(kv, holder) {
					log.Info().Str("holder", holder).Msg("control-plane lease handed back")
				} else {
					log.Warn().Str("holder", holder).Msg("control-plane lease not handed back; another process takes over when it expires")
				}
			}
			return
		case <-tick.C:
			attempt()
		}
	}
}
