package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/words"
)

func init() { registerCommand(newValidateCommand) }

func newValidateCommand(g *globalFlags) *cobra.Command {
	var daemon bool
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check a configuration file and list every problem in it",
		Long: `validate loads the configuration file given with -c and reports every problem
at once, each with its key path and what was expected. It exits 0 when the
file is valid and 1 when it is not.

With --daemon the file is checked as the daemon would check it (for example,
daemon.storage.output_dir must equal output.directory).`,
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
			return nil
		},
	}
	cmd.Flags().BoolVar(&daemon, "daemon", false, "check the file as the daemon loads it")
	return cmd
}
