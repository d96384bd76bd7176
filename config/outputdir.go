package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The output directory is where docweave writes the site. It may hold files
// of the user's own (a README, the configuration of another tool), and a
// build must never delete them: docweave removes only the entries it
// creates there (see OwnedOutputEntries). On top of that, a directory that
// would put the user's files at risk if something went wrong is refused
// outright: the filesystem root, the home directory or one of its
// parents, and any directory that holds the configuration file or
// docweave's workspace. Every check resolves symbolic links first, so a
// link to the configuration's directory is refused as the directory itself.

// OwnedOutputEntries are the names docweave creates directly inside the
// output directory, and the only ones it ever removes there:
//
//	public/            the published site
//	content/           the documentation laid out for the render
//	.docweave/         generated files, caches and staging directories
//	build-report.json  the report of the last build
//
// Names starting with ".public-" or ".site-", and "public.old", are the
// staging directories a publish goes through; one is left behind only when
// a process stops in the middle of a publish.
var OwnedOutputEntries = []string{"public", "content", ".docweave", "build-report.json"}

// IsOwnedOutputEntry reports whether name, an entry directly inside the
// output directory, is one docweave created and may remove.
func IsOwnedOutputEntry(name string) bool {
	if slices.Contains(OwnedOutputEntries, name) || name == "public.old" {
		return true
	}
	for _, prefix := range []string{".public-", ".site-"} {
		if strings.HasPrefix(name, prefix) && len(name) > len(prefix) {
			return true
		}
	}
	return false
}

// WorkspaceRoot is the directory checkouts, the artifact store and the
// embedded broker's store live in: build.workspace_dir, or .docweave beside
// the output directory.
func (c *Config) WorkspaceRoot() string {
	if c.Build.WorkspaceDir != "" {
		return c.Build.WorkspaceDir
	}
	out := c.Output.Directory
	if out == "" {
		out = DefaultOutputDirectory
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		abs = out
	}
	return filepath.Join(filepath.Dir(abs), ".docweave")
}

// RepoCacheRoot is where update and auto checkouts are kept across
// restarts: daemon.storage.repo_cache_dir, or repos/ in the workspace.
func (c *Config) RepoCacheRoot() string {
	if c.Daemon.Storage.RepoCacheDir != "" {
		return c.Daemon.Storage.RepoCacheDir
	}
	return filepath.Join(c.WorkspaceRoot(), "repos")
}

// SetOutputDirectory replaces output.directory (and, as loading does when
// the file leaves it out, daemon.storage.output_dir), as the command line's
// -o does. The new directory goes through the same checks as the one in
// the file; a refused directory is an error naming the flag and the reason.
func (c *Config) SetOutputDirectory(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	if problem := c.withOutput(abs).outputDirectoryProblem(); problem != "" {
		return fmt.Errorf("output directory %s: %s", dir, problem)
	}
	c.Output.Directory = abs
	c.Daemon.Storage.OutputDir = abs
	return nil
}

// withOutput returns a copy of c writing to dir.
func (c *Config) withOutput(dir string) *Config {
	cp := *c
	cp.Output.Directory = dir
	return &cp
}

// CheckOutputDirectory runs the output directory's checks again, as they
// stand on disk now: the render calls it before it removes anything there,
// because a symbolic link may have changed since the configuration was
// loaded.
func (c *Config) CheckOutputDirectory() error {
	if problem := c.outputDirectoryProblem(); problem != "" {
		return fmt.Errorf("output.directory %s: %s", c.Output.Directory, problem)
	}
	return nil
}

// outputDirectoryProblem says why output.directory must not be used, or
// returns "".
func (c *Config) outputDirectoryProblem() string {
	dir := resolveSymlinks(normalizeDir(c.Output.Directory))
	const dedicated = "expected a directory of its own for the site, such as ./site"
	if filepath.Dir(dir) == dir {
		return "is a filesystem root; " + dedicated
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" && isWithin(resolveSymlinks(normalizeDir(home)), dir) {
		return fmt.Sprintf("is the home directory %s or one of its parents; %s", home, dedicated)
	}
	guarded := []struct{ what, path string }{
		{"the configuration file", c.Path},
		{"the configuration's directory", c.loadState.baseDir},
		{"the workspace (build.workspace_dir)", c.WorkspaceRoot()},
		{"the repository cache (daemon.storage.repo_cache_dir)", c.RepoCacheRoot()},
	}
	if c.Path != "" {
		guarded = append(guarded[:1], guarded[2:]...) // the file says it more precisely
	}
	for _, g := range guarded {
		if g.path == "" {
			continue
		}
		resolved := resolveSymlinks(normalizeDir(g.path))
		if isWithin(resolved, dir) {
			where := ""
			if resolved != normalizeDir(g.path) || dir != normalizeDir(c.Output.Directory) {
				where = fmt.Sprintf(" (resolved through symbolic links: %s holds %s)", dir, resolved)
			}
			return fmt.Sprintf("holds %s %s%s; %s", g.what, g.path, where, dedicated)
		}
	}
	return ""
}

// resolveSymlinks returns p with every symbolic link resolved. A path
// that does not exist yet is resolved as far as it exists: the links of
// its deepest existing ancestor are followed and the rest is appended.
func resolveSymlinks(p string) string {
	rest := ""
	for cur := p; ; {
		if resolved, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(resolved, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
