package assemble

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/docweave/docweave/config"
)

// markerDir is the entry whose presence says docweave has used an output
// directory before (the assembly keeps its staging there).
const markerDir = ".docweave"

// lockFile, in markerDir, is the lock that lets one process at a time
// assemble into the output directory (see dirlock).
const lockFile = "lock"

// prepareOutputDirectory makes project ready for a build without ever
// touching what docweave did not create there. The output directory's
// checks run again first, on the directory as it is now (a symbolic link
// may have changed since loading). A directory that holds content/ or
// public/ but was never used by docweave is refused: those entries are
// someone else's. With output.clean, docweave's own entries are removed,
// except the published site and the report, which are replaced only when
// a build succeeds.
func prepareOutputDirectory(cfg *config.Config, project string) error {
	if err := checkOutputDirectory(cfg, project); err != nil {
		return err
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", project, err)
	}
	if err := os.MkdirAll(filepath.Join(project, markerDir), 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", project, err)
	}
	if !cfg.Output.Clean {
		return nil
	}
	entries, err := os.ReadDir(project)
	if err != nil {
		return fmt.Errorf("output directory %s: %w", project, err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case !config.IsOwnedOutputEntry(name) || name == "public" || name == "build-report.json":
			continue
		case name == markerDir:
			// Emptied, not removed: it marks the directory as docweave's
			// even if the process stops before the assembly writes it
			// again. The site before the published one and the records of
			// what the sites hold stay (see sitedirs.go): the next
			// assembly changes only what differs from them. The previews
			// (package preview) are the daemon's to keep and remove.
			if err := removeContents(filepath.Join(project, name), "next", "sites", lockFile, "previews"); err != nil {
				return err
			}
		default:
			if err := os.RemoveAll(filepath.Join(project, name)); err != nil {
				return fmt.Errorf("clean %s: %w", filepath.Join(project, name), err)
			}
		}
	}
	return nil
}

// checkOutputDirectory runs the output directory's checks without writing
// anything: the configuration's, on the directory as it is now, and that
// content/ or public/ there were made by docweave.
func checkOutputDirectory(cfg *config.Config, project string) error {
	if err := cfg.CheckOutputDirectory(); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(project, markerDir)); errors.Is(err, fs.ErrNotExist) {
		for _, name := range []string{"content", "public"} {
			if _, err := os.Lstat(filepath.Join(project, name)); err == nil {
				return fmt.Errorf("output directory %s holds %s/, which docweave did not create (there is no %s/ beside it); move it away or choose another output.directory", project, name, markerDir)
			}
		}
	}
	return nil
}

// removeContents removes everything inside dir but the entries named
// keep, keeping dir.
func removeContents(dir string, keep ...string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("clean %s: %w", dir, err)
	}
	for _, e := range entries {
		if slices.Contains(keep, e.Name()) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("clean %s: %w", filepath.Join(dir, e.Name()), err)
		}
	}
	return nil
}
