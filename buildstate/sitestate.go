package buildstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
)

// BuildsBucket keeps the builds' fan-ins (FanIns).
const BuildsBucket = "docweave-builds"

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
	// AcquisitionHash is config.AcquisitionHash of the build: while it
	// stays, a change of the site settings alone reuses the trees.
	AcquisitionHash string `json:"acquisition_hash,omitempty"`
	DocFilesHash    string `json:"doc_files_hash"`
	SiteHash        string `json:"site_hash"`
	Pages           int    `json:"pages"`
	// Repositories holds the successful units by events.UnitKey: the
	// repository name, or "<repository>@<version>" with versioning.
	Repositories map[string]events.RepoOutcome `json:"repositories"`
	// Renders holds, by unit key, the rendered output of every unit on the
	// published site: a unit that fails to render in a later build keeps
	// this output on the site (stale), and the artifact store keeps it.
	Renders map[string]events.UnitOutcome `json:"renders,omitempty"`
	// URLs is the artifact reference of the page URLs the site published
	// (and the old URLs it redirects to moved pages; renders.PutURLs), so
	// the next build redirects those that move; "" in states saved before
	// docweave remembered them.
	URLs string `json:"urls,omitempty"`
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

// publishedKey holds the ID of the newest build that published a site.
const publishedKey = "published"

// ClaimPublish records that buildID publishes its site now, unless a newer
// build (build IDs sort by start time) has already published: then it
// reports false and the caller must not publish. Two builds claiming at
// once are ordered by compare-and-set, so an older build never replaces a
// newer site, whatever order their messages arrive in — after a crash, a
// redelivered render of an old build included.
func (s *States) ClaimPublish(ctx context.Context, buildID string) (bool, error) {
	for attempt := 0; attempt < 100; attempt++ {
		e, err := s.kv.Get(ctx, publishedKey)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			if _, err := s.kv.Create(ctx, publishedKey, []byte(buildID)); err == nil {
				return true, nil
			} else if !errors.Is(err, jetstream.ErrKeyExists) {
				return false, fmt.Errorf("claim publish for %s: %w", buildID, err)
			}
			continue
		case err != nil:
			return false, fmt.Errorf("claim publish for %s: %w", buildID, err)
		}
		if published := string(e.Value()); published > buildID {
			return false, nil
		} else if published == buildID {
			return true, nil
		}
		if _, err := s.kv.Update(ctx, publishedKey, []byte(buildID), e.Revision()); err == nil {
			return true, nil
		} else if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) && !errors.Is(err, jetstream.ErrKeyExists) {
			return false, fmt.Errorf("claim publish for %s: %w", buildID, err)
		}
	}
	return false, fmt.Errorf("claim publish for %s: too many concurrent claims", buildID)
}

// Published returns the ID of the newest build that published, or "".
func (s *States) Published(ctx context.Context) (string, error) {
	e, err := s.kv.Get(ctx, publishedKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read published build: %w", err)
	}
	return string(e.Value()), nil
}
