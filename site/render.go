package site

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"

	"github.com/gohugoio/hugo/common/loggers"
	"github.com/gohugoio/hugo/config"
	"github.com/gohugoio/hugo/config/allconfig"
	"github.com/gohugoio/hugo/deps"
	"github.com/gohugoio/hugo/hugofs"
	"github.com/gohugoio/hugo/hugolib"

	"github.com/docweave/docweave/site/theme"
)

// renderMu serialises renders within a process. Hugo keeps a little
// process-wide state (its global logger, its clock), and two builds at
// once would only compete for the same CPUs and double the peak memory.
var renderMu sync.Mutex

// Render renders the site of opts.ProjectDir into opts.PublishDir with
// docweave's embedded theme. The context is checked before the build
// starts and after it ends; Hugo cannot be interrupted midway, so a
// cancelled render finishes its build and then reports ctx's error (the
// caller discards the staging directory).
func Render(ctx context.Context, opts Options) (Result, error) {
	return render(ctx, opts, theme.FS())
}

// render is Render with the theme as a parameter, so the benchmarks can
// measure Hugo alone with a minimal theme through the same code path.
func render(ctx context.Context, opts Options, themeFS fs.FS) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("render site: %w", err)
	}
	opts, err := validate(opts)
	if err != nil {
		return Result{}, err
	}
	l := newProjectLayout(opts.ProjectDir, opts.PublishDir)
	log := opts.Logger.With().Str("component", "site").Logger()

	renderMu.Lock()
	defer renderMu.Unlock()
	start := time.Now()

	scan, err := prepareProject(opts, l, themeFS)
	if err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}
	for _, file := range scan.Shadowed {
		log.Warn().Str("file", file).Msg("index file not rendered: its directory also has an _index file, which is the directory's page")
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}

	sites, err := newHugoSites(l, newHugoLogger(log))
	if err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}
	defer func() {
		if cerr := sites.Close(); cerr != nil {
			log.Warn().Err(cerr).Msg("closing hugo sites")
		}
	}()
	static, err := copyStatic(sites, l.PublishDir)
	if err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}
	if err := sites.Build(hugolib.BuildCfg{}); err != nil {
		return Result{}, fmt.Errorf("render site %s: hugo build: %w", l.ProjectDir, err)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}

	res := Result{Pages: countMarkdownPages(sites, l.SectionsDir)}
	if res.Files, err = countFiles(l.PublishDir); err != nil {
		return Result{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}
	log.Info().
		Int("pages", res.Pages).
		Int("files", res.Files).
		Int("markdown_files", scan.Markdown).
		Int("generated_sections", len(scan.Generated)).
		Int("static_files", static).
		Int64("duration_ms", time.Since(start).Milliseconds()).
		Str("publish_dir", l.PublishDir).
		Msg("site rendered")
	return res, nil
}

// prepareProject writes what Render adds to the project: the theme, the
// generated section pages and the Hugo configuration.
func prepareProject(opts Options, l projectLayout, themeFS fs.FS) (contentScan, error) {
	if err := l.resetGenerated(); err != nil {
		return contentScan{}, err
	}
	if err := l.installTheme(themeFS, theme.Name); err != nil {
		return contentScan{}, err
	}
	scan, err := scanContent(l.ContentDir, opts.Repositories)
	if err != nil {
		return contentScan{}, err
	}
	if err := writeSections(l.SectionsDir, scan.Generated); err != nil {
		return contentScan{}, err
	}
	if err := writeHugoConfig(l.ConfigFile, hugoConfig(opts, l, scan)); err != nil {
		return contentScan{}, err
	}
	return scan, nil
}

// newHugoSites loads the configuration written by prepareProject and
// creates the Hugo sites, the way Hugo's own command does minus its
// process-wide side effects. The environment is not passed on: HUGO_*
// variables of the docweave process must not change the site.
func newHugoSites(l projectLayout, logger loggers.Logger) (*hugolib.HugoSites, error) {
	flags := config.New()
	flags.Set("workingDir", l.ProjectDir)
	configs, err := allconfig.LoadConfig(allconfig.ConfigSourceDescriptor{
		Fs:          hugofs.Os,
		Logger:      logger,
		Flags:       flags,
		Filename:    l.ConfigFile,
		Environment: "production",
		Environ:     []string{"HUGO_ENVIRONMENT=production"},
	})
	if err != nil {
		return nil, fmt.Errorf("load hugo configuration %s: %w", l.ConfigFile, err)
	}
	sites, err := hugolib.NewHugoSites(deps.DepsCfg{
		Configs:    configs,
		Fs:         hugofs.NewFrom(hugofs.Os, configs.LoadingInfo.BaseConfig),
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
