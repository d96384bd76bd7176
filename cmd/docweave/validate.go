package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/preflight"
)

func init() { registerCommand(newValidateCommand) }

func newValidateCommand(g *globalFlags) *cobra.Command {
	var daemon, remote bool
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check a configuration file and list every problem in it",
		Long: `validate loads the configuration file given with -c and reports every problem
at once, each with its key path and what was expected. It exits 0 when the
file is valid and 1 when it is not.

With --daemon the file is checked as the daemon would check it (for example,
daemon.storage.output_dir must equal output.directory).

Without --remote, validate reads only the file: it never reaches the
network. With --remote it also asks each repository's remote for its
branches and tags and checks that each of its paths is a folder at the
configured branch or tag, fetching one commit's trees, never the history
(docweave build runs the same check first). A repository that does not
exist, a branch or tag that is not there and a path that matches nothing
are named with their file, line and key, with the branches, tags or
folders that do exist; it exits 1 when there is one. A remote that cannot
be reached is reported but does not fail the check.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			mode := config.ModeDirect
			if daemon {
				mode = config.ModeDaemon
			}
			cfg, err := config.Load(g.configPath, mode)
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), err)
				return &exitError{code: 1, err: fmt.Errorf("%s is not valid", g.configPath)}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s is valid: %s, output to %s\n", g.configPath, words.Count(len(cfg.Repositories), "repository", "repositories"), cfg.Output.Directory)
			if !remote {
				return nil
			}
			results := preflight.Check(cmd.Context(), cfg, cfg.Build.CloneConcurrency)
			if n := preflight.Print(cmd.OutOrStdout(), results); n > 0 {
				return &exitError{code: 1, err: fmt.Errorf("%s: %s on the remotes", g.configPath, words.Plural(n, "problem"))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&daemon, "daemon", false, "check the file as the daemon loads it")
	cmd.Flags().BoolVar(&remote, "remote", false, "also list each repository's refs and check its paths on the remote (no clone)")
	return cmd
}
