// Package version tells which docweave this is. The version takes part in
// skip-if-unchanged decisions (a new builder forces a rebuild) and is shown
// by `docweave version`.
package version

import (
	"runtime/debug"
)

// Version is set at link time (-ldflags "-X github.com/docweave/docweave/version.Version=v1.2.3");
// without it the module version or VCS revision recorded by the Go toolchain
// is used.
var Version = ""

// String returns the version of this binary, never empty.
func String() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel-" + s.Value[:12]
		}
	}
	return "devel"
}

// HugoVersion is the version of the embedded Hugo library.
func HugoVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, d := range info.Deps {
		if d.Path == "github.com/gohugoio/hugo" {
			return d.Version
		}
	}
	return "unknown"
}
