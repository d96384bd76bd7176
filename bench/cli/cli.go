// Package cli is the command line of docweave-bench, the benchmarks of
// docs/performance.md. It is a binary of its own (cmd/docweave-bench), so
// the benchmarks and their farm are not compiled into docweave; `docweave
// bench` runs it. The package is importable so that docweave's tests can
// check the documented bench command lines against it.
package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/bench"
	"github.com/docweave/docweave/bench/farm"
	"github.com/docweave/docweave/logging"
)

// ExitError carries the process exit code out of a command: 2 for a
// mistake in the command line, 1 for a run that failed.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// flags are the flags every command shares.
type flags struct {
	docweave  string
	logFormat string
	logLevel  string
}

// docweaveBinary is the docweave executable the cold builds run: --docweave,
// else docweave beside this binary, else docweave on PATH.
func (g *flags) docweaveBinary() (string, error) {
	if g.docweave != "" {
		return g.docweave, nil
	}
	if self, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), "docweave")
		if _, err := os.Stat(beside); err == nil {
			return beside, nil
		}
	}
	if p, err := exec.LookPath("docweave"); err == nil {
		return p, nil
	}
	return "", errors.New("the docweave binary to measure was not found beside this one or on PATH: give --docweave PATH")
}

// NewCommand returns the root command, named name ("docweave-bench").
func NewCommand(name string) *cobra.Command {
	g := &flags{}
	cmd := &cobra.Command{
		Use:   name,
		Short: "Measure docweave against the git command line and Hugo on a generated farm",
		Long: `docweave-bench generates a farm of Git repositories with realistic Markdown
pages, serves it over Git smart HTTP on loopback, and measures docweave on it:

  docweave bench run            every figure of docs/performance.md (long)
  docweave bench run --quick    a smoke test of every row (seconds)
  docweave bench farm --dir D   generate and serve a farm for your own tests
  docweave bench corpus FILE    build real documentation repositories, count what is lost

(docweave bench runs this binary, found beside docweave or on PATH.)`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&g.docweave, "docweave", "", "the docweave binary to measure (default: beside this binary, else on PATH)")
	pf.StringVar(&g.logFormat, "log-format", logging.FormatAuto, "log format: auto, json, console")
	pf.StringVar(&g.logLevel, "log-level", "warn", "log level: trace, debug, info, warn, error")
	cmd.AddCommand(newRunCommand(g), newFarmCommand(), newChartCommand(), newRenderFloorCommand(), newCorpusCommand(g))
	return cmd
}

func newRunCommand(g *flags) *cobra.Command {
	var (
		quick                                       bool
		sizes, jsonPath, svgPath, workDir, baseline string
		repos, pages, repeat, daemonBuilds          int
		concurrency, linkHosts, ingressReq          int
		linkLatency                                 time.Duration
	)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Measure every figure, print a table, write JSON and an SVG chart",
		Long: `run measures, at each size: the cold direct build (docweave build as a child
process, with its peak RSS) against the floor (git clone of the same
repositories at the same concurrency plus Hugo rendering the same tree with
the same theme) and against the true floor (the same clones plus Hugo with
one-line templates), in wall time and user CPU; a daemon rebuild with nothing changed and with one
repository changed, and the daemon's live heap across successive builds;
link verification with a cold and a warm cache. Then the ingress API's 304
and 200 rates. Each figure is the median of --repeat runs, with its spread.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := bench.DefaultOptions()
			if quick {
				opts = bench.QuickOptions()
			}
			flags := cmd.Flags()
			if flags.Changed("sizes") {
				s, err := bench.ParseSizes(sizes)
				if err != nil {
					return &ExitError{Code: 2, Err: fmt.Errorf("--%w", err)}
				}
				opts.Sizes = s
			}
			if flags.Changed("repos") || flags.Changed("pages") {
				if !flags.Changed("repos") || !flags.Changed("pages") {
					return &ExitError{Code: 2, Err: fmt.Errorf("--repos and --pages: give both (one size), or use --sizes")}
				}
				opts.Sizes = []bench.Size{{Repos: repos, Pages: pages}}
			}
			for name, dst := range map[string]*int{"repeat": &opts.Repeat, "daemon-builds": &opts.DaemonBuilds, "clone-concurrency": &opts.CloneConcurrency, "link-hosts": &opts.LinkHosts, "ingress-requests": &opts.IngressRequests} {
				if flags.Changed(name) {
					v, _ := flags.GetInt(name)
					*dst = v
				}
			}
			if flags.Changed("link-latency") {
				opts.LinkLatency = linkLatency
			}
			opts.WorkDir = workDir
			if baseline != "" {
				abs, err := filepath.Abs(baseline)
				if err != nil {
					return &ExitError{Code: 2, Err: fmt.Errorf("--baseline: %w", err)}
				}
				if _, err := os.Stat(abs); err != nil {
					return &ExitError{Code: 2, Err: fmt.Errorf("--baseline: %w", err)}
				}
				opts.Baseline = abs
			}
			// warn by default: the daemon's info logs would bury the
			// progress lines.
			log, err := logging.New(os.Stderr, g.logFormat, g.logLevel)
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			opts.Log = log
			opts.Progress = cmd.ErrOrStderr()
			if opts.Binary, err = g.docweaveBinary(); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			if opts.FloorBinary, err = os.Executable(); err != nil {
				return &ExitError{Code: 2, Err: fmt.Errorf("find this binary for the floor's render: %w", err)}
			}
			if err := opts.Validate(); err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			rep, err := bench.Run(ctx, opts)
			if err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			rep.Command = "docweave bench " + joinArgs(os.Args[1:])
			return writeBenchOutputs(cmd, rep, jsonPath, svgPath)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&quick, "quick", false, "smoke test: one tiny farm (2x5), 2 repeats, 3 daemon builds")
	f.StringVar(&sizes, "sizes", "20x50,50x100", "farm sizes REPOSxPAGES, comma-separated")
	f.IntVar(&repos, "repos", 0, "repositories of a single size (with --pages; replaces --sizes)")
	f.IntVar(&pages, "pages", 0, "pages per repository of a single size (with --repos)")
	f.IntVar(&repeat, "repeat", 5, "runs per figure; the median is reported")
	f.IntVar(&daemonBuilds, "daemon-builds", 20, "successive one-repository-changed daemon builds at the largest size")
	f.IntVar(&concurrency, "clone-concurrency", 4, "build.clone_concurrency, and the floor's git clone concurrency")
	f.IntVar(&linkHosts, "link-hosts", 8, "loopback servers standing in for the external sites pages link to")
	f.DurationVar(&linkLatency, "link-latency", 20*time.Millisecond, "how long each external link takes to answer")
	f.IntVar(&ingressReq, "ingress-requests", 20000, "requests per ingress rate sample")
	f.StringVar(&jsonPath, "json", "bench-results.json", "where the JSON results go")
	f.StringVar(&svgPath, "svg", "docs/images/performance.svg", "where the chart goes (\"\" for none)")
	f.StringVar(&baseline, "baseline", "", "another docweave binary (say, built from an earlier commit) whose cold builds alternate with this one's")
	f.StringVar(&workDir, "work-dir", "", "directory for the farms and builds (default: a temporary directory, removed afterwards)")
	return cmd
}

// writeBenchOutputs prints the table and writes the JSON and the chart.
func writeBenchOutputs(cmd *cobra.Command, rep *bench.Report, jsonPath, svgPath string) error {
	if err := bench.WriteTable(cmd.OutOrStdout(), rep); err != nil {
		return &ExitError{Code: 1, Err: err}
	}
	if jsonPath != "" {
		if err := rep.WriteJSON(jsonPath); err != nil {
			return &ExitError{Code: 1, Err: err}
		}
	}
	if svgPath != "" {
		var buf bytes.Buffer
		if err := bench.WriteSVG(&buf, rep); err != nil {
			return &ExitError{Code: 1, Err: err}
		}
		if err := os.MkdirAll(filepath.Dir(svgPath), 0o755); err != nil {
			return &ExitError{Code: 1, Err: fmt.Errorf("chart %s: %w", svgPath, err)}
		}
		if err := os.WriteFile(svgPath, buf.Bytes(), 0o644); err != nil {
			return &ExitError{Code: 1, Err: fmt.Errorf("chart %s: %w", svgPath, err)}
		}
	}
	return nil
}

func newChartCommand() *cobra.Command {
	var jsonPath, svgPath string
	cmd := &cobra.Command{
		Use:   "chart",
		Short: "Redraw the table and the chart from an earlier run's JSON",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := bench.ReadJSON(jsonPath)
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			return writeBenchOutputs(cmd, rep, "", svgPath)
		},
	}
	cmd.Flags().StringVar(&jsonPath, "json", "bench-results.json", "results of `docweave bench run`")
	cmd.Flags().StringVar(&svgPath, "svg", "docs/images/performance.svg", "where the chart goes")
	return cmd
}

func newFarmCommand() *cobra.Command {
	var dir string
	var repos, pages, linkHosts int
	var linkLatency time.Duration
	cmd := &cobra.Command{
		Use:   "farm",
		Short: "Generate a farm, serve it over Git smart HTTP, print a configuration for it",
		Long: `farm generates --repos repositories of --pages pages under --dir, serves them
over Git smart HTTP on a random loopback port and the pages' external links
from --link-hosts loopback servers, prints a docweave configuration that
builds the farm, and serves until interrupted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return &ExitError{Code: 2, Err: fmt.Errorf("--dir: required (where the repositories go)")}
			}
			links, err := farm.StartLinkServers(linkHosts, linkLatency)
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			defer links.Close()
			reposDir := filepath.Join(dir, "repos")
			made, err := farm.Generate(farm.Spec{Dir: reposDir, Repos: repos, Pages: pages, LinkBases: links.Bases()})
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			git, err := farm.ServeGit(reposDir)
			if err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			defer git.Close()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "# docweave bench farm: %d repositories × %d pages; external links answered by %v\n", repos, pages, links.Bases())
			fmt.Fprintln(out, "repositories:")
			for _, r := range made {
				fmt.Fprintf(out, "  - {name: %s, url: %q}\n", r.Name, git.URL(r.Name))
			}
			abs, _ := filepath.Abs(dir)
			fmt.Fprintf(out, "output:\n  directory: %q\n", filepath.Join(abs, "site"))
			fmt.Fprintln(cmd.ErrOrStderr(), "bench farm: serving; interrupt to stop")
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			<-ctx.Done()
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "directory for the repositories (required)")
	cmd.Flags().IntVar(&repos, "repos", 20, "number of repositories")
	cmd.Flags().IntVar(&pages, "pages", 50, "pages per repository")
	cmd.Flags().IntVar(&linkHosts, "link-hosts", 8, "loopback servers answering the external links")
	cmd.Flags().DurationVar(&linkLatency, "link-latency", 20*time.Millisecond, "how long each external link takes to answer")
	return cmd
}

// newRenderFloorCommand is the render half of the floor, run by `run` as a
// child process of this binary, so its peak memory is its own.
func newRenderFloorCommand() *cobra.Command {
	var project, publish, title, metricsFile, cpuProfile string
	var repos []string
	var minimal bool
	cmd := &cobra.Command{
		Use:    "render-floor",
		Short:  "Render a prepared Hugo project with docweave's theme (used by bench run)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if project == "" || publish == "" {
				return &ExitError{Code: 2, Err: fmt.Errorf("--project and --publish: both required")}
			}
			var metrics io.Writer
			if metricsFile != "" {
				f, err := os.Create(metricsFile)
				if err != nil {
					return &ExitError{Code: 1, Err: fmt.Errorf("template metrics: %w", err)}
				}
				defer f.Close()
				metrics = f
			}
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return &ExitError{Code: 1, Err: fmt.Errorf("cpu profile: %w", err)}
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return &ExitError{Code: 1, Err: fmt.Errorf("cpu profile: %w", err)}
				}
				defer pprof.StopCPUProfile()
			}
			res, err := bench.RenderFloor(cmd.Context(), project, publish, title, repos, minimal, metrics)
			if err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			return json.NewEncoder(cmd.OutOrStdout()).Encode(res)
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "Hugo project directory with content/ written")
	cmd.Flags().StringVar(&publish, "publish", "", "where the HTML goes (must not exist)")
	cmd.Flags().StringVar(&title, "title", "docweave benchmark", "site title")
	cmd.Flags().StringArrayVar(&repos, "repository", nil, "name=content/path of a repository (repeatable)")
	cmd.Flags().BoolVar(&minimal, "minimal", false, "render with one-line templates instead of the theme (the theme's floor)")
	cmd.Flags().StringVar(&metricsFile, "template-metrics", "", "write Hugo's template metrics (time and count per template) to this file")
	cmd.Flags().StringVar(&cpuProfile, "cpu-profile", "", "write a Go CPU profile of the render to this file (go tool pprof)")
	return cmd
}

func joinArgs(args []string) string {
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}
