package assemble

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/docweave/docweave/config"
)

// markerDir is the entry whose presence says docweave has used an output
// directory before (the site package keeps its generated files there).
const markerDir = ".docweave"

// prepareOutputDirectory makes project ready for a build without ever
// touching what docweave did not create there. The output directory's
// checks run again first, on the directory as it is now (a symbolic link
// may have changed since loading). A directory that holds content/ or
// public/ but was never used by docweave is refused: those entries are
// someone else's. With output.clean, docweave's own entries are removed,
// except the published site and the report, which are replaced only when
// a build succeeds.
func prepareOutputDirectory(cfg *config.Config, project string) error {
	if err := cfg.CheckOutputDirectory(); err != nil {
		return err
	}
	if err := os.MkdirAll(project, 0o755); err != nil {
		return fmt.Errorf("output directory %s: %w", project, err)
	}
	if _, err := os.Stat(filepath.Join(project, markerDir)); errors.Is(err, fs.ErrNotExist) {
		for _, name := range []string{"content", "public"} {
			if _, err := os.Lstat(filepath.Join(project, name)); err == nil {
				return fmt.Errorf("output directory %s holds %s/, which docweave did not create (there is no %s/ beside it); move it away or choose another output.directory", project, name, markerDir)
			}
		}
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
			// even if the process stops before the render writes it again.
			if err := removeContents(filepath.Join(project, name)); err != nil {
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

// removeContents removes everything inside dir, keeping dir.
func removeContents(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("clean %s: %w", dir, err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("clean %s: %w", filepath.Join(dir, e.Name()), err)
		}
	}
	return nil
}
