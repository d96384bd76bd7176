package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/docweave/docweave/config"
)

// SetVersion is the version of the stored set's JSON layout.
const SetVersion = 1

// Set is what discovery found, per forge: the repositories taken and how
// the latest scan went. It is stored (a JetStream key-value bucket in
// daemon mode, a file in the workspace for direct builds) so a forge that
// cannot be listed keeps its last repositories, and so every process of a
// split deployment builds the same ones.
type Set struct {
	Version int          `json:"version"`
	Forges  []ForgeState `json:"forges"`
}

// ForgeState is the result of scanning one forge.
type ForgeState struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Settings digests the forge's settings that decide what is taken; a
	// change makes the next scan check every repository again.
	Settings  string    `json:"settings"`
	OK        bool      `json:"ok"`
	Error     string    `json:"error,omitempty"`
	ScannedAt time.Time `json:"scanned_at"`
	// ListedAt is the latest successful scan (kept across failures).
	ListedAt   time.Time `json:"listed_at,omitzero"`
	DurationMS int64     `json:"duration_ms"`
	Requests   int       `json:"requests"`
	Listed     int       `json:"listed"`
	// Repositories are the repositories taken.
	Repositories []Repo `json:"repositories"`
	// Seen are repositories listed but not taken for want of
	// documentation, with the stamp that decided it, so an unchanged one
	// is not asked about again.
	Seen     []Seen   `json:"seen,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// Repo is one repository discovery took.
type Repo struct {
	// Name is its docweave name (unique among all repositories).
	Name     string `json:"name"`
	FullPath string `json:"full_path"`
	ID       string `json:"id"`
	// URL is the clone URL, without credentials.
	URL string `json:"url"`
	// Branch and UpdatedAt are the default branch and the forge's stamp
	// of the last push when the paths were checked.
	Branch    string `json:"branch"`
	UpdatedAt string `json:"updated_at"`
	// Hook is true once docweave's webhook is registered on it.
	Hook bool `json:"hook,omitempty"`
}

// Seen is a repository listed without documentation.
type Seen struct {
	FullPath  string `json:"full_path"`
	Branch    string `json:"branch"`
	UpdatedAt string `json:"updated_at"`
}

// state returns the state of the forge with the given name, nil if none.
func (s *Set) state(name string) *ForgeState {
	if s == nil {
		return nil
	}
	for i := range s.Forges {
		if s.Forges[i].Name == name {
			return &s.Forges[i]
		}
	}
	return nil
}

// Repositories turns the set into repositories for the configuration:
// each with its forge's documentation roots and credentials. Forges no
// longer configured contribute nothing.
func (s *Set) Repositories(cfg *config.Config) []config.Repository {
	var out []config.Repository
	for _, f := range cfg.Forges {
		st := s.state(f.Label())
		if st == nil {
			continue
		}
		for _, r := range st.Repositories {
			out = append(out, config.Repository{Name: r.Name, URL: r.URL, Paths: f.DocPaths(), Auth: f.Auth})
		}
	}
	return out
}

// Statuses summarises each configured forge's latest scan.
func (s *Set) Statuses(cfg *config.Config) []config.ForgeStatus {
	var out []config.ForgeStatus
	for _, f := range cfg.Forges {
		st := s.state(f.Label())
		if st == nil {
			out = append(out, config.ForgeStatus{Name: f.Label(), Type: f.Type, Error: "not scanned yet"})
			continue
		}
		out = append(out, config.ForgeStatus{
			Name: st.Name, Type: st.Type, OK: st.OK, Error: st.Error, ScannedAt: st.ScannedAt, ListedAt: st.ListedAt,
			Repositories: len(st.Repositories), Listed: st.Listed, Requests: st.Requests, Warnings: st.Warnings,
		})
	}
	return out
}

// Apply makes cfg build the set's repositories and report its forges.
func Apply(cfg *config.Config, s *Set) {
	cfg.SetDiscovered(s.Repositories(cfg), s.Statuses(cfg))
}

// settingsKey digests what decides which repositories of a forge are
// taken, so cached decisions are dropped when it changes.
func settingsKey(f config.Forge) string {
	data, _ := json.Marshal(struct {
		Type, Base, Auth              string
		Orgs, Include, Exclude, Paths []string
		Archived, Forks               bool
	}{f.Type, f.APIBase(), string(f.Auth.Type), f.Organizations, f.Include, f.Exclude, f.DocPaths(), f.IncludeArchived, f.IncludeForks})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
