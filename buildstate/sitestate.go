package buildstate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
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
	// Each unit is a record of its own beside the state (see Save).
	Repositories map[string]events.RepoOutcome `json:"-"`
	// Renders holds, by unit key, the rendered output of every unit on the
	// published site: a unit that fails to render in a later build keeps
	// this output on the site (stale), and the artifact store keeps it.
	Renders map[string]events.UnitOutcome `json:"-"`
	// Units counts the unit records saved with the state and UnitsDigest
	// fingerprints them, so a state read while another build saves its
	// own is recognised as mixed.
	Units       int    `json:"units"`
	UnitsDigest string `json:"units_digest"`
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
func OpenStates(ctx context.Context, js roles.KeyValues) (*States, error) {
	kv, err := js.KeyValue(ctx, StateBucket)
	if err != nil {
		return nil, fmt.Errorf("open bucket %s: %w", StateBucket, err)
	}
	return &States{kv: kv}, nil
}

// Load returns the saved state, or nil when no build has saved one. A
// state that cannot be read whole (unreadable, or read while another
// build saved its own) is nil as well: it only costs a rebuild.
func (s *States) Load(ctx context.Context) (*SiteState, error) {
	st, err := s.Head(ctx)
	if st == nil || err != nil {
		return st, err
	}
	units, err := s.readUnits(ctx)
	if err != nil {
		return nil, err
	}
	if len(units) != st.Units || unitsDigest(units) != st.UnitsDigest {
		return nil, nil
	}
	st.Repositories = map[string]events.RepoOutcome{}
	for key, data := range units {
		var u savedUnit
		if err := json.Unmarshal(data, &u); err != nil {
			return nil, nil
		}
		if u.Repository != nil {
			st.Repositories[key] = *u.Repository
		}
		if u.Render != nil {
			if st.Renders == nil {
				st.Renders = map[string]events.UnitOutcome{}
			}
			st.Renders[key] = *u.Render
		}
	}
	return st, nil
}

// Head returns the saved state without its units (Repositories and
// Renders nil), or nil when no build has saved one or it cannot be read:
// one read, for what needs the site's own fields only (its URLs, say).
func (s *States) Head(ctx context.Context) (*SiteState, error) {
	e, err := s.kv.Get(ctx, siteStateKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read saved state: %w", err)
	}
	var st SiteState
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		return nil, nil
	}
	return &st, nil
}

// Save records the state of a published site: a record per unit (only
// those that changed are written, those gone are deleted), then the state
// itself, which counts and fingerprints them. No record grows with the
// number of units.
func (s *States) Save(ctx context.Context, st SiteState) error {
	units := map[string][]byte{}
	for key, o := range st.Repositories {
		u := savedUnit{Repository: &o}
		if r, ok := st.Renders[key]; ok {
			u.Render = &r
		}
		data, err := json.Marshal(u)
		if err != nil {
			return err
		}
		units[key] = data
	}
	for key, r := range st.Renders {
		if _, ok := units[key]; ok {
			continue
		}
		data, err := json.Marshal(savedUnit{Render: &r})
		if err != nil {
			return err
		}
		units[key] = data
	}
	have, err := s.readUnits(ctx)
	if err != nil {
		return err
	}
	for key, data := range units {
		if old, ok := have[key]; ok && bytes.Equal(old, data) {
			continue
		}
		if _, err := s.kv.Put(ctx, unitStateKey(key), data); err != nil {
			return fmt.Errorf("save state of unit %s: %w", key, err)
		}
	}
	for key := range have {
		if _, ok := units[key]; !ok {
			if err := s.kv.Delete(ctx, unitStateKey(key)); err != nil {
				return fmt.Errorf("forget state of unit %s: %w", key, err)
			}
		}
	}
	st.Units, st.UnitsDigest = len(units), unitsDigest(units)
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if _, err := s.kv.Put(ctx, siteStateKey, data); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	return nil
}

// savedUnit is one unit's record in the saved state: its tree and its
// rendered output, where it has them.
type savedUnit struct {
	Repository *events.RepoOutcome `json:"repository,omitempty"`
	Render     *events.UnitOutcome `json:"render,omitempty"`
}

// unitStatePrefix starts the keys of the units' records.
const unitStatePrefix = "units."

func unitStateKey(unit string) string {
	return unitStatePrefix + base64.RawURLEncoding.EncodeToString([]byte(unit))
}

// readUnits reads every unit's record, by unit key.
func (s *States) readUnits(ctx context.Context) (map[string][]byte, error) {
	w, err := s.kv.Watch(ctx, unitStatePrefix+"*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("read saved units: %w", err)
	}
	defer w.Stop()
	out := map[string][]byte{}
	for e := range w.Updates() {
		if e == nil {
			break
		}
		key, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(e.Key(), unitStatePrefix))
		if err != nil {
			continue // not one of ours
		}
		out[string(key)] = e.Value()
	}
	return out, nil
}

// unitsDigest fingerprints the units' records.
func unitsDigest(units map[string][]byte) string {
	keys := make([]string, 0, len(units))
	for k := range units {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%d:%s%d:", len(k), k, len(units[k]))
		h.Write(units[k])
	}
	return hex.EncodeToString(h.Sum(nil))
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
