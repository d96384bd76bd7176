package hugobuild

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gohugoio/hugo/hugofs"
	"github.com/spf13/afero"
)

// memDirFs is the operating system's file system with one directory held
// in memory instead: Hugo reads the files below dir from mem and all
// others from the disk. The assembly gives its stand-ins for the units'
// pages (about one per page of the site) to Hugo this way, as the same
// files they would be on disk, without creating them there: on a busy
// disk, creating a file costs more than Hugo reading it (see
// docs/performance.md).
type memDirFs struct {
	afero.Fs // the disk
	dir      string
	mem      afero.Fs
}

// NewMemDirFs returns the disk with dir (absolute) served from files, a
// map of slash paths below dir to their contents.
func NewMemDirFs(dir string, files map[string][]byte) (*memDirFs, error) {
	mem := afero.NewMemMapFs()
	if err := mem.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for rel, data := range files {
		name := filepath.Join(dir, filepath.FromSlash(rel))
		if err := mem.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return nil, err
		}
		if err := afero.WriteFile(mem, name, data, 0o644); err != nil {
			return nil, err
		}
	}
	return &memDirFs{Fs: hugofs.Os, dir: filepath.Clean(dir), mem: mem}, nil
}

// on returns the file system that holds name.
func (m *memDirFs) on(name string) afero.Fs {
	name = filepath.Clean(name)
	if name == m.dir || strings.HasPrefix(name, m.dir+string(filepath.Separator)) {
		return m.mem
	}
	return m.Fs
}

func (m *memDirFs) Create(name string) (afero.File, error) { return m.on(name).Create(name) }
func (m *memDirFs) Mkdir(name string, perm os.FileMode) error {
	return m.on(name).Mkdir(name, perm)
}
func (m *memDirFs) MkdirAll(name string, perm os.FileMode) error {
	return m.on(name).MkdirAll(name, perm)
}
func (m *memDirFs) Open(name string) (afero.File, error) { return m.on(name).Open(name) }
func (m *memDirFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	return m.on(name).OpenFile(name, flag, perm)
}
func (m *memDirFs) Remove(name string) error    { return m.on(name).Remove(name) }
func (m *memDirFs) RemoveAll(name string) error { return m.on(name).RemoveAll(name) }
func (m *memDirFs) Rename(from, to string) error {
	if m.on(from) != m.on(to) {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: os.ErrInvalid}
	}
	return m.on(from).Rename(from, to)
}
func (m *memDirFs) Stat(name string) (os.FileInfo, error) { return m.on(name).Stat(name) }
func (m *memDirFs) Chmod(name string, mode os.FileMode) error {
	return m.on(name).Chmod(name, mode)
}
func (m *memDirFs) Chown(name string, uid, gid int) error {
	return m.on(name).Chown(name, uid, gid)
}
func (m *memDirFs) Chtimes(name string, atime, mtime time.Time) error {
	return m.on(name).Chtimes(name, atime, mtime)
}
func (m *memDirFs) Name() string { return "memdir" }

// LstatIfPossible implements afero.Lstater, as the disk does.
func (m *memDirFs) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	if l, ok := m.on(name).(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := m.Stat(name)
	return fi, false, err
}

// UnwrapFilesystem lets Hugo see that it works on the disk (hugofs.IsOsFs),
// as it does without the directory in memory.
func (m *memDirFs) UnwrapFilesystem() afero.Fs { return m.Fs }
