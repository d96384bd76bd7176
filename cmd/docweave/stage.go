package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon"
	"github.com/docweave/docweave/pipeline"
)

func init() { registerCommand(newStageCommand) }

func newStageCommand(g *globalFlags) *cobra.Command {
	var stages, metricsAddr string
	cmd := &cobra.Command{
		Use:   "stage --stages NAME[,NAME…]",
		Short: "Run some pipeline stages in this process, against a shared NATS broker",
		Long: `stage runs the chosen stages in this process against a broker shared with the
site's other processes: broker.url, or the daemon's embedded broker when it listens
(broker.embedded.listen; on the same machine and with the same configuration
file the address and credentials are found in the workspace). Any
combination of stages may run in any number of processes; replicas of a
stage share its durable consumer, so each message is handled once.

Stages: discover, clone, join, render, assemble, finish, verifylinks,
publishreload (join was called prune and finish fingerprint; the former names
still work). Any stage may run in any number of processes: assemble uploads
each site to the broker's object store before it goes live, so any
publishreload replica announces it; assemble replicas that share one
<output.directory> take turns. Documentation trees and sites travel through the broker's object
store (build.artifact_store: auto, the default; set local only for processes
that share a disk).

/health and /metrics are served on --metrics-addr, off unless given (for
example --metrics-addr 127.0.0.1:9464, or :9090 in a pod of its own).
SIGTERM stops the process gracefully: handlers in flight finish, their
messages are acknowledged.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger()
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			names := splitList(stages)
			if len(names) == 0 {
				return &exitError{code: 2, err: fmt.Errorf("--stages: name at least one of %s", strings.Join(pipeline.Registered(), ", "))}
			}
			cfg, err := config.Load(g.configPath, config.ModeDaemon)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := daemon.RunStages(ctx, cfg, names, metricsAddr, daemon.Options{Log: log}); err != nil {
				return &exitError{code: 1, err: err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&stages, "stages", "", "comma-separated stages to run (required)")
	cmd.Flags().StringVar(&metricsAddr, "metrics-addr", "", `host:port of /health and /metrics (default: none)`)
	return cmd
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
