package artifact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Prune removes the objects of the broker's store (trees and records)
// that keep and records do not name and that were stored more than minAge
// ago, by the broker's clock, so the bucket does not grow with every
// build. It returns how many objects it removed.
//
// The caller makes sure no build runs meanwhile (daemon: the coordinator
// holds builds back while it prunes): an object is removed whole, its info
// first, so a later look-up finds it absent and stores or renders it again,
// but a build that had found it a moment before would miss it.
func (o *Objects) Prune(ctx context.Context, keep map[Ref]bool, records map[string]bool, minAge time.Duration) (int, error) {
	infos, err := o.obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("prune the object store %s: %w", o.bucket, err)
	}
	removed := 0
	for _, info := range infos {
		if !prunable(info.Name, keep, records) || time.Since(info.ModTime) < minAge {
			continue
		}
		if err := o.remove(ctx, info); err != nil {
			return removed, fmt.Errorf("prune %s from the object store %s: %w", info.Name, o.bucket, err)
		}
		removed++
	}
	return removed, nil
}

// prunable reports whether an object is one of docweave's that keep and
// records leave unnamed; an object docweave did not name is left alone.
func prunable(name string, keep map[Ref]bool, records map[string]bool) bool {
	if hex, ok := strings.CutPrefix(name, "tree/"); ok {
		return !keep[Ref("sha256:"+hex)]
	}
	if rec, ok := strings.CutPrefix(name, "record/"); ok {
		return !records[rec]
	}
	return false
}

// remove purges an object's info, then its chunks: nothing of it stays,
// not even a deletion marker, so the bucket holds only what is stored.
func (o *Objects) remove(ctx context.Context, info *jetstream.ObjectInfo) error {
	if err := o.stream.Purge(ctx, jetstream.WithPurgeSubject(o.metaSubject(info.Name))); err != nil {
		return err
	}
	if info.NUID == "" {
		return nil
	}
	return o.stream.Purge(ctx, jetstream.WithPurgeSubject(o.chunkSubject(info.NUID)))
}
