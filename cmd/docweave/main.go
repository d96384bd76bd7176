// Command docweave aggregates documentation from many Git repositories into
// one static site, keeps it current in daemon mode, and serves the ingress
// listing interface. Each subcommand lives in its own file of this package;
// the work itself lives in the packages they call.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"

	"github.com/docweave/docweave/logging"
)

// exitError carries a process exit code out of a command, so commands return
// errors like any Go function and only main decides how the process ends.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// globalFlags are the flags every subcommand shares.
type globalFlags struct {
	configPath string
	logFormat  string
	logLevel   string
}

// logger builds the process logger from the shared flags; logs go to stderr
// so stdout stays free for a command's own output.
func (g *globalFlags) logger() (zerolog.Logger, error) {
	return logging.New(os.Stderr, g.logFormat, g.logLevel)
}

func newRootCommand() *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:   "docweave",
		Short: "Aggregate documentation from Git repositories into one static site",
		Long: `docweave pulls documentation folders from many Git repositories, renders one
static site with an embedded Hugo and its own theme, and writes a build report.

Run "docweave init" for a commented starter configuration, "docweave validate"
to check one, and "docweave build" to build the site once.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVarP(&g.configPath, "config", "c", "docweave.yaml", "configuration file (YAML)")
	root.PersistentFlags().StringVar(&g.logFormat, "log-format", logging.FormatAuto, "log format: auto (console on a terminal, else JSON), json, console")
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "info", "log level: trace, debug, info, warn, error")
	for _, add := range commandConstructors {
		root.AddCommand(add(g))
	}
	return root
}

// commandConstructors lists the subcommands; each file of this package adds
// its own entry from an init function, so adding a command touches one file.
var commandConstructors []func(*globalFlags) *cobra.Command

func registerCommand(f func(*globalFlags) *cobra.Command) {
	commandConstructors = append(commandConstructors, f)
}

func main() {
	err := newRootCommand().Execute()
	if err == nil {
		return
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(os.Stderr, "docweave:", ee.err)
		}
		os.Exit(ee.code)
	}
	fmt.Fprintln(os.Stderr, "docweave:", err)
	os.Exit(2)
}
