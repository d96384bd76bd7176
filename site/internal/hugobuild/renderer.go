package hugobuild

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"github.com/docweave/docweave/version"
)

// AddressVersion changes when the meaning of a content address (a unit's,
// or the assembly's key of its pages) changes.
const AddressVersion = "docweave-unit-address/1"

var (
	rendererOnce sync.Once
	rendererID   string
)

// RendererID names the code that renders: docweave's version and Hugo's.
// A development build (no release version, or a checkout with changes)
// is named by the hash of its own executable, so a rebuilt binary never
// reuses what an earlier one rendered.
func RendererID() string {
	rendererOnce.Do(func() {
		rendererID = version.String() + " hugo " + version.HugoVersion()
		if !isDevelopmentBuild() {
			return
		}
		if id, err := executableID(); err == nil {
			rendererID += " exe " + id
		}
	})
	return rendererID
}

// executableID identifies this executable's code: the hash of its Go
// build ID (an ELF note the Go linker writes, which changes whenever the
// code does), read without reading the whole file; else the hash of the
// whole file.
func executableID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if sec := f.Section(".note.go.buildid"); sec != nil {
			if data, err := sec.Data(); err == nil && len(data) > 0 {
				sum := sha256.Sum256(data)
				return "buildid-" + hex.EncodeToString(sum[:]), nil
			}
		}
	}
	file, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// isDevelopmentBuild reports whether this binary's version does not pin
// its code: no release version, or a checkout with uncommitted changes.
func isDevelopmentBuild() bool {
	if version.Version != "" {
		return false
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return true
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.modified" {
			return s.Value == "true"
		}
	}
	return true
}
