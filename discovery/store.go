package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// Bucket is the key-value bucket that keeps the discovered set in daemon
// mode, where every process of a deployment reads it.
const Bucket = "docweave-discovery"

const setKey = "set"

// FileName is the file direct builds keep the discovered set in, in the
// workspace.
const FileName = "discovered.json"

// Store keeps the discovered set between scans.
type Store interface {
	// Load returns the stored set, or nil when there is none (or it
	// cannot be read: a lost set costs a full scan, nothing else).
	Load(ctx context.Context) (*Set, error)
	Save(ctx context.Context, s *Set) error
}

// KVStore is the set in the JetStream bucket docweave-discovery.
type KVStore struct {
	kv jetstream.KeyValue
}

// OpenKV creates (or binds) the bucket with the deployment's replicas.
func OpenKV(ctx context.Context, js roles.KeyValues, replicas int) (*KVStore, error) {
	var kv jetstream.KeyValue
	err := natsbroker.RetryWhileElecting(ctx, func(ctx context.Context) error {
		var err error
		kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket:      Bucket,
			Description: "docweave: repositories discovered from forges (forges[])",
			History:     1,
			Storage:     jetstream.FileStorage,
			Replicas:    max(replicas, 1),
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("open bucket %s: %w", Bucket, err)
	}
	return &KVStore{kv: kv}, nil
}

// Load implements Store.
func (s *KVStore) Load(ctx context.Context) (*Set, error) {
	e, err := s.kv.Get(ctx, setKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the discovered set: %w", err)
	}
	return decodeSet(e.Value()), nil
}

// Save implements Store.
func (s *KVStore) Save(ctx context.Context, set *Set) error {
	data, err := json.Marshal(set)
	if err != nil {
		return err
	}
	if _, err := s.kv.Put(ctx, setKey, data); err != nil {
		return fmt.Errorf("save the discovered set: %w", err)
	}
	return nil
}

// FileStore is the set in a JSON file: direct builds keep it in the
// workspace, next to their checkouts.
type FileStore struct {
	Path string
}

// Load implements Store.
func (s FileStore) Load(context.Context) (*Set, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the discovered set: %w", err)
	}
	return decodeSet(data), nil
}

// Save implements Store, atomically.
func (s FileStore) Save(_ context.Context, set *Set) error {
	data, err := json.MarshalIndent(set, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o755); err != nil {
		return fmt.Errorf("save the discovered set: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.Path), ".discovered-*.json")
	if err != nil {
		return fmt.Errorf("save the discovered set: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("save the discovered set: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), s.Path)
}

// decodeSet reads a stored set; one of another version, or unreadable, is
// no set at all.
func decodeSet(data []byte) *Set {
	var s Set
	if err := json.Unmarshal(data, &s); err != nil || s.Version != SetVersion {
		return nil
	}
	return &s
}
