// Package hugobuild is the machinery of one Hugo build in this process:
// where a project's generated files go (Layout), what Hugo is told — its
// configuration and the site's settings in params.docweave (Config,
// RepositoryParams), the content planned onto Hugo's sections (PlanContent,
// WriteSections, WriteVersionRedirects) — Hugo's sites made from a
// project with our loggers (NewSites, Errors), builds side by side
// (Builds), projects partly in memory (NewMemDirFs), static files copied
// by hand (CopyStatic), the menu's window of a large folder, and the name
// of the renderer in content addresses (RendererID). Which build runs is
// decided by its callers: a unit's render (package site) or the assembly
// (package assembly).
package hugobuild

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gohugoio/hugo/config"
	"github.com/gohugoio/hugo/config/allconfig"
	"github.com/gohugoio/hugo/deps"
	"github.com/gohugoio/hugo/hugofs"
	"github.com/gohugoio/hugo/hugolib"
	"github.com/rs/zerolog"
	"github.com/spf13/afero"
)

// Builds lets the Hugo builds of this process run side by side (each
// holds it shared), which the units of a site need: a small unit's build
// is mostly work that does not spread over cores. One piece of Hugo's
// state is process-wide, its global logger, and a build counts the errors
// logged there as its own; with builds side by side such an error can be
// counted by the wrong one. A build that failed only on errors it did not
// record itself is therefore run again alone (holding it exclusively).
var Builds sync.RWMutex

// LoggedElsewhere reports whether a failed build's only reason may be
// errors another build logged: Hugo says it logged errors, and this
// build's own loggers recorded none.
func LoggedElsewhere(err error, recorded int) bool {
	return err != nil && recorded == 0 && strings.Contains(err.Error(), "logged ") && strings.Contains(err.Error(), "error(s)")
}

// NewSites loads the configuration written by runBuild and creates the
// Hugo sites, the way Hugo's own command does minus its process-wide side
// effects. The environment is not passed on: HUGO_* variables of the
// docweave process must not change the site.
//
// The build reads the project from source, the disk when nil (the
// assembly gives its stand-ins from memory, see memDirFs). Configuration
// loading and the build get separate logger instances (both
// forwarding to log): loading installs its logger as Hugo's global one, and
// Hugo counts the errors of the global and the build logger together, so
// one shared instance would count every error twice.
func NewSites(l Layout, source afero.Fs, log zerolog.Logger, errs *Errors) (*hugolib.HugoSites, error) {
	if source == nil {
		source = hugofs.Os
	}
	flags := config.New()
	flags.Set("workingDir", l.ProjectDir)
	configs, err := allconfig.LoadConfig(allconfig.ConfigSourceDescriptor{
		Fs:          source,
		Logger:      newHugoLogger(log, errs),
		Flags:       flags,
		Filename:    l.ConfigFile,
		Environment: "production",
		Environ:     []string{"HUGO_ENVIRONMENT=production"},
	})
	if err != nil {
		return nil, fmt.Errorf("load hugo configuration %s: %w", l.ConfigFile, err)
	}
	logger := newHugoLogger(log, errs)
	sites, err := hugolib.NewHugoSites(deps.DepsCfg{
		Configs:    configs,
		Fs:         hugofs.NewFrom(source, configs.LoadingInfo.BaseConfig),
		TestLogger: logger,
		LogLevel:   logger.Level(),
		StdOut:     io.Discard,
		StdErr:     io.Discard,
	})
	if err != nil {
		return nil, fmt.Errorf("create hugo sites: %w", err)
	}
	return sites, nil
}
