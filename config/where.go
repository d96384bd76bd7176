package config

import (
	"fmt"
	"path/filepath"
)

// Where names the place of key (a key path such as
// "repositories[1].paths[0]") in the file the configuration was loaded
// from, as "file:line", so a message about a value found wrong after
// loading — a repository that does not exist, a path that matches nothing
// — points where to fix it. A key the file does not write is placed at its
// nearest written parent; "" when nothing is known (a configuration not
// read from a file, a discovered repository).
func (c *Config) Where(key string) string {
	pos, ok := positionOf(key, c.loadState.positions)
	if !ok || c.Path == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", shownPath(c.Path), pos.Line)
}

// RepositoryKey is the key path of the configured repository called name
// ("repositories[2]"), or "" for one not in the file (discovered).
func (c *Config) RepositoryKey(name string) string {
	for i, r := range c.Repositories {
		if r.Name == name {
			return fmt.Sprintf("repositories[%d]", i)
		}
	}
	return ""
}

// shownPath is a file's path relative to the working directory when it is
// below it (as the person typed it, usually), else absolute.
func shownPath(p string) string {
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}
