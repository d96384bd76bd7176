package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/version"
)

func init() { registerCommand(newVersionCommand) }

func newVersionCommand(*globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the docweave version, the embedded Hugo version and the Go toolchain",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "docweave %s (hugo %s, %s %s/%s)\n",
				version.String(), version.HugoVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
