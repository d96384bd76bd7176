package cli

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/bench"
)

// newCorpusCommand is `docweave-bench corpus`: real documentation
// repositories built alone and together, measured per build.
func newCorpusCommand(g *flags) *cobra.Command {
	var (
		jsonPath, workDir string
		only              []string
		together, keep    bool
		timeout           time.Duration
	)
	cmd := &cobra.Command{
		Use:   "corpus FILE",
		Short: "Build real documentation repositories alone and in one site; print what each build lost",
		Long: `corpus builds each repository of FILE alone, each in its own output
directory, then all of them in one site, with docweave build as a child
process, and prints per build: the exit code, the Markdown files given
(under the configured paths, hidden ones left out), those that are not
pages by the rules of their own tool (GitBook SUMMARY.md and .bookignore,
Hugo drafts, build.render never and index.md beside _index.md), the pages
rendered (build report), the pages left out (given − not pages −
rendered), the images the pages show (<img src> of the site's HTML)
referenced and published, the issues by code, the time and the peak RSS.

FILE is a docweave configuration: its repositories are the corpus (${VAR}
expands from the environment, as in docweave.yaml), its other sections
apply to every build; output and workspace are the bench's own. See
bench/corpus.example.yaml and docs/performance.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			binary, err := g.docweaveBinary()
			if err != nil {
				return &ExitError{Code: 2, Err: err}
			}
			opts := bench.CorpusOptions{File: args[0], Binary: binary, Only: only, Together: together, Timeout: timeout, Keep: keep, Progress: cmd.ErrOrStderr()}
			if workDir == "" {
				tmp, err := os.MkdirTemp("", "docweave-corpus-")
				if err != nil {
					return &ExitError{Code: 1, Err: err}
				}
				defer os.RemoveAll(tmp)
				workDir = tmp
			}
			if opts.WorkDir, err = filepath.Abs(workDir); err != nil {
				return &ExitError{Code: 2, Err: fmt.Errorf("--work-dir: %w", err)}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			res, err := bench.RunCorpus(ctx, opts)
			if err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			if err := bench.WriteCorpusTable(cmd.OutOrStdout(), res); err != nil {
				return &ExitError{Code: 1, Err: err}
			}
			if jsonPath != "" {
				if err := res.WriteJSON(jsonPath); err != nil {
					return &ExitError{Code: 1, Err: err}
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&jsonPath, "json", "", "also write every figure, with each repository's part of the one site, to this JSON file")
	f.StringSliceVar(&only, "only", nil, "build only these repositories (names, comma-separated)")
	f.BoolVar(&together, "together", true, "after the builds alone, build all the repositories in one site")
	f.DurationVar(&timeout, "timeout", 30*time.Minute, "longest a build may run; it is then killed and reported as timed out (0: no limit)")
	f.BoolVar(&keep, "keep", false, "keep each build's site and workspace under --work-dir (they are removed once measured)")
	f.StringVar(&workDir, "work-dir", "", "directory for the builds' configurations, logs and reports (default: a temporary directory, removed afterwards)")
	return cmd
}
