package config

import (
	"slices"
	"sync"
)

// discoveredRepos is the set forge discovery last produced, shared by
// every copy of a Config and safe for concurrent use: discovery replaces
// it while stages read it.
type discoveredRepos struct {
	mu    sync.RWMutex
	repos []Repository
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
func (c *Config) SetDiscovered(repos []Repository) {
	h := c.holder()
	h.mu.Lock()
	h.repos = slices.Clone(repos)
	h.mu.Unlock()
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
