package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
)

// StateBucket keeps what the last good build published, for the
// skip-if-unchanged decision and for reusing unchanged repositories.
const StateBucket = "docweave-state"

const siteStateKey = "site"

// SiteState is saved after every build that published a site. Only
// repositories that succeeded are recorded, so a repository that failed is
// acquired again by the next build.
type SiteState struct {
	BuildID        string    `json:"build_id"`
	FinishedAt     time.Time `json:"finished_at"`
	BuilderVersion string    `json:"builder_version"`
	ConfigHash     string    `json:"config_hash"`
	DocFilesHash   string    `json:"doc_files_hash"`
	SiteHash       string    `json:"site_hash"`
	Pages          int       `json:"pages"`
	// Repositories holds the successful units by events.UnitKey: the
	// repository name, or "<repository>@<version>" with versioning.
	Repositories map[string]events.RepoOutcome `json:"repositories"`
}

// States is the state bucket.
type States struct {
	kv jetstream.KeyValue
}

// OpenStates binds the (provisioned) state bucket.
func OpenStates(ctx context.Context, js jetstream.JetStream) (*States, error) {
	kv, err := js.KeyValue(ctx, StateBucket)
	if err != nil {
		return nil, fmt.Errorf("open bucket %s: %w", StateBucket, err)
	}
	return &States{kv: kv}, nil
}

// Load returns the saved state, or nil when no build has saved one.
func (s *States) Load(ctx context.Context) (*SiteState, error) {
	e, err := s.kv.Get(ctx, siteStateKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read saved state: %w", err)
	}
	var st SiteState
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		return nil, nil // an unreadable state only costs a rebuild
	}
	return &st, nil
}

// Save records the state of a published site.
func (s *States) Save(ctx context.Context, st SiteState) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if _, err := s.kv.Put(ctx, siteStateKey, data); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	return nil
}
