package config

import (
	"context"
	"slices"
	"sync"
	"time"
)

// discoveredRepos is the set forge discovery last produced, shared by
// every copy of a Config and safe for concurrent use: discovery replaces
// it while stages read it.
type discoveredRepos struct {
	mu      sync.RWMutex
	repos   []Repository
	forges  []ForgeStatus
	refresh func(context.Context) error
}

// ForgeStatus is the outcome of the latest scan of one forge, for the
// build report and /status.
type ForgeStatus struct {
	Name string
	Type string
	// OK is false when the forge could not be listed; its repositories
	// are then the ones of the last successful scan.
	OK    bool
	Error string
	// ScannedAt is the latest attempt, ListedAt the latest success.
	ScannedAt, ListedAt time.Time
	Repositories        int // taken
	Listed              int // listed by the forge
	Requests            int // API requests of the latest attempt
	Warnings            []string
}

// holderMu guards the lazy creation of a Config's holder.
var holderMu sync.Mutex

func (c *Config) holder() *discoveredRepos {
	holderMu.Lock()
	defer holderMu.Unlock()
	if c.discovered == nil {
		c.discovered = &discoveredRepos{}
	}
	return c.discovered
}

// SetDiscovered replaces the repositories forge discovery found. They
// join Repositories in AllRepositories and Repository; a discovered
// repository whose name a configured one already has is ignored (discovery
// names them so that this does not happen). Every copy of c made after
// loading shares the set.
func (c *Config) SetDiscovered(repos []Repository, forges []ForgeStatus) {
	h := c.holder()
	h.mu.Lock()
	h.repos, h.forges = slices.Clone(repos), slices.Clone(forges)
	h.mu.Unlock()
}

// ForgeStatuses returns the outcome of the latest scan of each forge.
func (c *Config) ForgeStatuses() []ForgeStatus {
	h := c.holder()
	h.mu.RLock()
	defer h.mu.RUnlock()
	return slices.Clone(h.forges)
}

// SetDiscoveryRefresh installs how this process reloads the discovered set
// from where discovery stores it; RefreshDiscovered calls it.
func (c *Config) SetDiscoveryRefresh(refresh func(context.Context) error) {
	h := c.holder()
	h.mu.Lock()
	h.refresh = refresh
	h.mu.Unlock()
}

// RefreshDiscovered reloads the discovered set now, for a stage that was
// asked about a repository this process has not heard of yet (another
// process discovered it a moment ago). Without a refresh installed it does
// nothing.
func (c *Config) RefreshDiscovered(ctx context.Context) error {
	h := c.holder()
	h.mu.RLock()
	refresh := h.refresh
	h.mu.RUnlock()
	if refresh == nil {
		return nil
	}
	return refresh(ctx)
}

// Discovered returns the repositories forge discovery found last.
func (c *Config) Discovered() []Repository {
	h := c.holder()
	h.mu.RLock()
	defer h.mu.RUnlock()
	return slices.Clone(h.repos)
}

// AllRepositories returns the configured repositories followed by the
// discovered ones: every repository a build takes.
func (c *Config) AllRepositories() []Repository {
	out := slices.Clone(c.Repositories)
	taken := make(map[string]bool, len(out))
	for _, r := range out {
		taken[r.Name] = true
	}
	for _, r := range c.Discovered() {
		if !taken[r.Name] {
			taken[r.Name] = true
			out = append(out, r)
		}
	}
	return out
}

func (c *Config) discoveredRepository(name string) (Repository, bool) {
	for _, r := range c.Discovered() {
		if r.Name == name {
			return r, true
		}
	}
	return Repository{}, false
}
