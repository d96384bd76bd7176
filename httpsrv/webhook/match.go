package webhook

import (
	"slices"

	"github.com/docweave/docweave/config"
)

// configuredRepo is a configured repository reduced to what matching a
// push needs.
type configuredRepo struct {
	name   string
	branch string // "" follows the remote's default branch
	key    string // repoKey of its URL
}

// matcher finds the configured repositories a payload speaks about.
type matcher struct {
	repos []configuredRepo
	names []string // configuration order, for messages
}

// newMatcher prepares the configured repositories for matching and returns
// the names of those whose URL has no usable key (they can still be built
// through the generic endpoint).
func newMatcher(repos []config.Repository) (*matcher, []string) {
	m := &matcher{}
	var unmatchable []string
	for _, r := range repos {
		key := repoKey(r.URL)
		if key == "" {
			unmatchable = append(unmatchable, r.Name)
		}
		m.repos = append(m.repos, configuredRepo{name: r.Name, branch: r.Branch, key: key})
		m.names = append(m.names, r.Name)
	}
	return m, unmatchable
}

// byURL returns the configured repositories whose URL equals, after
// normalisation, any of the payload's URLs (clone, SSH, web), in
// configuration order. Several may match: one Git repository can be
// configured more than once, for example with different branches.
func (m *matcher) byURL(urls []string) []configuredRepo {
	var keys []string
	for _, u := range urls {
		if k := repoKey(u); k != "" {
			keys = append(keys, k)
		}
	}
	var found []configuredRepo
	for _, r := range m.repos {
		if r.key != "" && slices.Contains(keys, r.key) {
			found = append(found, r)
		}
	}
	return found
}

// byName returns the configured repository with the given name.
func (m *matcher) byName(name string) (configuredRepo, bool) {
	for _, r := range m.repos {
		if r.name == name {
			return r, true
		}
	}
	return configuredRepo{}, false
}
