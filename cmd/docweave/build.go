package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/direct"
	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/logging"
	"github.com/docweave/docweave/report"
	_ "github.com/docweave/docweave/stages/all" // every stage runs in a direct build
)

func init() { registerCommand(newBuildCommand) }

func newBuildCommand(g *globalFlags) *cobra.Command {
	var outDir string
	var verifyLinks, checkRemote bool
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Build the documentation site once and exit",
		Long: `build clones every configured repository, renders the site with the embedded
Hugo and theme into <output.directory>/public, and writes
<output.directory>/build-report.json. All stages run in this process; the
broker is embedded (in-process, not listening) unless broker.url is set, in
which case that broker carries the build's messages.

First it checks each repository on its remote (see validate --remote): a
paths entry that is not a folder at the configured branch stops the build
before any clone; --check-remote=false skips the check.

Exit codes:
  0  every repository built and the site rendered
  1  the site rendered, but some repositories failed (see the report)
  2  no site: configuration error, render failure, or no repository succeeded

With --verify-links the links of the rendered site are verified too (see
docs/links.md): the build waits for the verification, prints its figures and
the first broken links, and the report gains a links section. Broken links
do not change the exit code. Without broker.url the link cache lives only as
long as the build; set broker.url to keep it between builds.

On a terminal it shows progress; otherwise it writes structured JSON logs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBuild(cmd, g, outDir, verifyLinks, checkRemote)
		},
	}
	cmd.Flags().StringVarP(&outDir, "output", "o", "", "output directory (overrides output.directory)")
	cmd.Flags().BoolVar(&verifyLinks, "verify-links", false, "verify the links of the rendered site and wait for the result")
	cmd.Flags().BoolVar(&checkRemote, "check-remote", true, "first check each repository, its branch and its paths on the remote (validate --remote); =false to skip")
	return cmd
}

func runBuild(cmd *cobra.Command, g *globalFlags, outDir string, verifyLinks, checkRemote bool) error {
	interactive := logging.IsTerminal(os.Stderr) && (g.logFormat == logging.FormatAuto || g.logFormat == "")
	level := g.logLevel
	if interactive && level == "info" {
		level = "warn" // the progress line replaces info logs on a terminal
	}
	log, err := logging.New(os.Stderr, g.logFormat, level)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	cfg, err := config.Load(g.configPath, config.ModeDirect)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if outDir != "" {
		// -o goes through the checks output.directory goes through.
		if err := cfg.SetOutputDirectory(outDir); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("-o: %w", err)}
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if checkRemote {
		if err := checkRemotes(ctx, cmd.ErrOrStderr(), cfg, log); err != nil {
			return &exitError{code: 2, err: err}
		}
	}

	opts := direct.Options{Log: log, VerifyLinks: verifyLinks}
	if interactive {
		opts.OnProgress = progressLine(os.Stderr)
	} else {
		last := direct.Progress{}
		opts.OnProgress = func(p direct.Progress) {
			if p.Acquired != last.Acquired || p.Rendered != last.Rendered {
				log.Info().Str("build_id", p.BuildID).Int("repositories_done", p.Acquired).
					Int("repositories", p.Repositories).Int("pages", p.Pages).Msg("progress")
			}
			last = p
		}
	}
	rep, err := direct.Build(ctx, cfg, opts)
	if interactive {
		fmt.Fprintln(os.Stderr)
	}
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	printSummary(cmd.OutOrStdout(), cfg, rep)
	if rep.Links != nil {
		printLinks(cmd.OutOrStdout(), rep.Links)
	}
	if code := rep.ExitCode(); code != 0 {
		return &exitError{code: code, err: fmt.Errorf("build %s: %s", rep.BuildID, rep.Outcome)}
	}
	return nil
}

// progressLine redraws one status line on a terminal.
func progressLine(w io.Writer) func(direct.Progress) {
	return func(p direct.Progress) {
		pages := "rendering…"
		if p.Acquired < p.Repositories {
			pages = "waiting for repositories"
		}
		if p.Rendered {
			pages = words.Plural(p.Pages, "page") + " rendered"
		}
		if p.VerifyingLinks {
			pages += " · verifying links…"
		}
		failed := ""
		if p.Failed > 0 {
			failed = fmt.Sprintf(" (%d failed)", p.Failed)
		}
		fmt.Fprintf(w, "\r\033[Krepositories %d/%d%s · %s · %s", p.Acquired, p.Repositories, failed, pages, p.Elapsed.Round(100*time.Millisecond))
	}
}

func printSummary(w io.Writer, cfg *config.Config, rep *report.Report) {
	fmt.Fprintf(w, "build %s: %s — %s from %s in %s\n",
		rep.BuildID, rep.Outcome, words.Plural(rep.RenderedPages, "page"), sources(rep),
		time.Duration(rep.DurationMS)*time.Millisecond)
	if rep.StaticRendered {
		fmt.Fprintf(w, "site:   %s\n", filepath.Join(cfg.Output.Directory, "public"))
	}
	fmt.Fprintf(w, "report: %s\n", filepath.Join(cfg.Output.Directory, "build-report.json"))
	for _, is := range rep.Issues {
		if is.Severity == report.SeverityError {
			fmt.Fprintf(w, "  %s: %s\n", strings.TrimSpace(is.Code+" "+issueSubject(is)), is.Message)
			if fix := configFix(cfg, is); fix != "" {
				fmt.Fprintf(w, "    %s\n", fix)
			}
		}
	}
	if rep.IssuesOmitted > 0 {
		fmt.Fprintf(w, "  (%s more in the report)\n", words.Plural(rep.IssuesOmitted, "issue"))
	}
	printWarnings(w, rep)
	printReaders(w, rep)
}

// shownWarnings are the warnings the summary prints in full: mistakes in
// the configuration, which only the operator can correct. The others
// (pages of the repositories) are counted by code; the report has them.
var shownWarnings = map[string]bool{report.CodeDocsPathMissing: true}

// printWarnings prints the configuration warnings in full and a count of
// every warning by code (from the report's counts: the report a build
// returns carries a bounded number of its issues).
func printWarnings(w io.Writer, rep *report.Report) {
	if rep.IssueCounts == nil {
		rep.CountIssues()
	}
	counts := map[string]int{}
	total := 0
	for _, c := range rep.IssueCounts {
		if c.Severity == report.SeverityWarning {
			counts[c.Code] += c.Count
			total += c.Count
		}
	}
	for _, is := range rep.Issues {
		if is.Severity != report.SeverityWarning {
			continue
		}
		if shownWarnings[is.Code] {
			subject := strings.TrimSpace(issueSubject(is) + " " + is.Path)
			fmt.Fprintf(w, "  warning %s: %s\n", strings.TrimSpace(is.Code+" "+subject), is.Message)
		}
	}
	if total == 0 {
		return
	}
	codes := make([]string, 0, len(counts))
	for code := range counts {
		codes = append(codes, code)
	}
	sort.Slice(codes, func(i, j int) bool {
		if counts[codes[i]] != counts[codes[j]] {
			return counts[codes[i]] > counts[codes[j]]
		}
		return codes[i] < codes[j]
	})
	parts := make([]string, len(codes))
	for i, code := range codes {
		parts[i] = fmt.Sprintf("%s %d", code, counts[code])
	}
	fmt.Fprintf(w, "  %s in the report: %s\n", words.Plural(total, "warning"), strings.Join(parts, ", "))
}

// sources says what the pages came from: "2 of 3 repositories", or with
// versioning "1 repository (3 of 4 versions)", counting each repository
// once however many versions it has.
func sources(rep *report.Report) string {
	done := rep.ClonedRepositories + rep.ReusedRepositories
	all := done + rep.FailedRepositories
	if len(rep.Versions) == 0 {
		return fmt.Sprintf("%d of %s", done, words.Count(all, "repository", "repositories"))
	}
	repos := map[string]bool{}
	for _, r := range rep.Repositories {
		repos[r.Name] = true
	}
	return fmt.Sprintf("%s (%d of %s)", words.Count(len(repos), "repository", "repositories"), done, words.Plural(all, "version"))
}

// issueSubject names what an issue concerns: the repository, with its
// version when there is one; "" for an issue of the whole build.
func issueSubject(is report.Issue) string {
	if is.Version != "" {
		return is.Repository + "@" + is.Version
	}
	return is.Repository
}
