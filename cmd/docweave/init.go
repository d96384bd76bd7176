package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
)

func init() { registerCommand(newInitCommand) }

func newInitCommand(g *globalFlags) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a commented starter configuration",
		Long: `init writes a starter configuration to the file given with -c (default
docweave.yaml): every section with its defaults and a comment on every key.
It refuses to overwrite an existing file unless --force is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
			if force {
				flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			f, err := os.OpenFile(g.configPath, flags, 0o644)
			if errors.Is(err, os.ErrExist) {
				return &exitError{code: 1, err: fmt.Errorf("%s exists; use --force to overwrite it", g.configPath)}
			}
			if err != nil {
				return &exitError{code: 1, err: err}
			}
			if _, err := f.Write(config.StarterYAML); err != nil {
				f.Close()
				return &exitError{code: 1, err: err}
			}
			if err := f.Close(); err != nil {
				return &exitError{code: 1, err: err}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s; check it with: docweave validate -c %s\n", g.configPath, g.configPath)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing file")
	return cmd
}
