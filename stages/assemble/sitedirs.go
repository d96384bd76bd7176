package assemble

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/docweave/docweave/site"
)

// The site is published by an exchange of two directories: the next site
// is assembled in <output>/.docweave/next and exchanged with
// <output>/public in one rename, after which next holds the site before.
// That one is kept: the assembly after it starts from it and changes only
// what differs (site.PlacedSite), so a push to one repository costs that
// repository, not the site.
//
// What a directory holds is recorded in <output>/.docweave/sites/<inode>.json,
// by the directory's inode, which an exchange does not change. The record
// is removed before a directory is changed and written when it is whole
// again, so a process stopped in between leaves a directory without a
// record — which the next assembly empties and fills afresh.

// nextDir is the directory the next site is assembled in.
func nextDir(project string) string { return filepath.Join(project, markerDir, "next") }

// placedRecord is where the record of the directory with inode ino goes.
func placedRecord(project string, ino uint64) string {
	return filepath.Join(project, markerDir, "sites", strconv.FormatUint(ino, 10)+".json")
}

// inode returns a directory's inode number.
func inode(dir string) (uint64, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return 0, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("%s: no inode number on this system", dir)
	}
	return st.Ino, nil
}

// takeNext returns the directory to assemble the next site in with the
// record of what it holds, which it removes: until putPlaced writes a new
// one, the directory is being changed. A directory without a record is
// emptied, so the assembly starts afresh.
func takeNext(project string) (string, *site.PlacedSite, error) {
	dir := nextDir(project)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	ino, err := inode(dir)
	if err != nil {
		return "", nil, err
	}
	record := placedRecord(project, ino)
	data, err := os.ReadFile(record)
	var placed *site.PlacedSite
	if err == nil {
		placed = &site.PlacedSite{}
		if json.Unmarshal(data, placed) != nil {
			placed = nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", nil, err
	}
	if err := os.Remove(record); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", nil, err
	}
	if placed == nil {
		if err := emptyDir(dir); err != nil {
			return "", nil, err
		}
	}
	return dir, placed, nil
}

// putPlaced records what the directory dir holds.
func putPlaced(project, dir string, placed *site.PlacedSite) error {
	ino, err := inode(dir)
	if err != nil {
		return err
	}
	record := placedRecord(project, ino)
	if err := os.MkdirAll(filepath.Dir(record), 0o755); err != nil {
		return err
	}
	data, err := json.Marshal(placed)
	if err != nil {
		return err
	}
	tmp := record + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, record)
}

// forgetPlaced removes the records of directories that are neither the
// published site nor the next one: an inode number is reused once its
// directory is gone.
func forgetPlaced(project string) {
	keep := map[string]bool{}
	for _, dir := range []string{filepath.Join(project, "public"), nextDir(project)} {
		if ino, err := inode(dir); err == nil {
			keep[strconv.FormatUint(ino, 10)+".json"] = true
		}
	}
	entries, err := os.ReadDir(filepath.Join(project, markerDir, "sites"))
	if err != nil {
		return
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			os.Remove(filepath.Join(project, markerDir, "sites", e.Name()))
		}
	}
}

// emptyDir removes everything inside dir.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
