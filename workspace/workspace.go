// Package workspace lays out the directories a docweave process works in:
// where checkouts, the artifact store and the embedded broker's store live.
// Events name checkouts by a key relative to this layout, never by an
// absolute path, so the layout can move without changing any message.
package workspace

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/config"
)

// Layout is the workspace of one process.
type Layout struct {
	// Root is build.workspace_dir, or <parent of output.directory>/.docweave.
	Root string
	// RepoCache keeps update/auto checkouts across restarts:
	// daemon.storage.repo_cache_dir, or <Root>/repos.
	RepoCache string
}

// For derives the layout from a configuration (config.WorkspaceRoot and
// config.RepoCacheRoot, so the output directory's checks guard the same
// directories this layout uses).
func For(cfg *config.Config) Layout {
	return Layout{Root: cfg.WorkspaceRoot(), RepoCache: cfg.RepoCacheRoot()}
}

// Artifacts is the local artifact store's directory.
func (l Layout) Artifacts() string { return filepath.Join(l.Root, "artifacts") }

// Broker is the embedded broker's JetStream store directory.
func (l Layout) Broker() string { return filepath.Join(l.Root, "nats") }

// FreshKey names a build's own checkout of a repository (clone_strategy
// fresh), removed once its documentation has been taken. The key is one
// folder below checkouts/, not a folder per build holding one per
// repository, so removing the checkout leaves nothing behind (a folder
// per build stayed, empty, after every build).
func FreshKey(buildID, repo string) string { return "checkouts/" + buildID + "+" + repo }

// CacheKey names a repository's persistent checkout (update and auto).
func CacheKey(repo string) string { return "cache/" + repo }

// Dir resolves a checkout key to its directory, refusing keys that would
// leave the workspace.
func (l Layout) Dir(key string) (string, error) {
	clean := filepath.ToSlash(filepath.Clean(key))
	if clean != key || strings.Contains(clean, "..") {
		return "", fmt.Errorf("checkout key %q is not a clean relative key", key)
	}
	switch {
	case strings.HasPrefix(key, "checkouts/"):
		return filepath.Join(l.Root, filepath.FromSlash(key)), nil
	case strings.HasPrefix(key, "cache/"):
		return filepath.Join(l.RepoCache, strings.TrimPrefix(key, "cache/")), nil
	}
	return "", fmt.Errorf("checkout key %q has no known prefix", key)
}
