package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/docweave/docweave/internal/dirlock"
)

// lockName is the file every process using a workspace holds a lock on:
// shared while it works, exclusive for the moment it sweeps.
const lockName = ".lock"

// leftover matches what a build creates in the workspace and removes when
// it ends — what a killed process leaves behind: temporary folders made by
// os.MkdirTemp with docweave's own prefixes (put-, read-, spill-,
// nats-direct-) and, under checkouts/ and verify/, one folder per build.
var leftover = regexp.MustCompile(`^(put|read|spill|nats-direct)-[0-9]+$`)

// sweptDirs are the folders below the workspace where stages make their
// temporary folders (the stage scratch folders, the artifact store's tmp).
var sweptDirs = []string{".", "render", "finish", "join", "spill", filepath.Join("artifacts", "tmp")}

// perBuildDirs hold only folders of builds in flight: a checkout per build
// and repository (clone_strategy fresh), the site fetched for link
// verification.
var perBuildDirs = []string{"checkouts", "verify"}

// Claim makes the workspace and holds it for this process until release
// is called. When no other live process holds it, it first removes what
// earlier processes left (Sweep): a process killed during a build leaves
// its partial checkout and temporary folders, and nothing else would ever
// remove them. A process that starts while another works in the same
// workspace sweeps nothing, so it never removes the other's work.
func (l Layout) Claim() (release func(), swept int, err error) {
	if err := os.MkdirAll(l.Root, 0o755); err != nil {
		return nil, 0, fmt.Errorf("workspace %s: %w", l.Root, err)
	}
	f, err := os.OpenFile(filepath.Join(l.Root, lockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, 0, fmt.Errorf("workspace %s: %w", l.Root, err)
	}
	alone, err := dirlock.TryExclusive(f)
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("workspace %s: lock: %w", l.Root, err)
	}
	if alone {
		swept, err = l.Sweep()
	}
	if lerr := dirlock.Shared(f); lerr != nil && err == nil {
		err = fmt.Errorf("workspace %s: lock: %w", l.Root, lerr)
	}
	if err != nil {
		f.Close()
		return nil, swept, err
	}
	return func() { f.Close() }, swept, nil
}

// Sweep removes what builds left in the workspace — only what docweave
// names its own way (see leftover and perBuildDirs) — and returns how many
// entries it removed. The caller makes sure no build is in flight.
func (l Layout) Sweep() (int, error) {
	removed := 0
	remove := func(p string) error {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("workspace sweep: %w", err)
		}
		removed++
		return nil
	}
	for _, d := range sweptDirs {
		dir := filepath.Join(l.Root, d)
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() && leftover.MatchString(e.Name()) {
				if err := remove(filepath.Join(dir, e.Name())); err != nil {
					return removed, err
				}
			}
		}
	}
	for _, d := range perBuildDirs {
		dir := filepath.Join(l.Root, d)
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if err := remove(filepath.Join(dir, e.Name())); err != nil {
				return removed, err
			}
		}
	}
	return removed, nil
}
