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
		Long: `stage runs the chosen stages in this process against the broker named by
daemon.link_verification.broker_url (nats_url), which is required: the
processes of a split deployment meet there. Any combination of stages may run
in any number of processes; replicas of a stage share its durable consumer,
so each message is handled once.

Stages: discover, clone, prune, render, fingerprint, verifylinks, publishreload.
render, fingerprint, verifylinks and publishreload read <output.directory>:
run them in one process (or on a shared disk). With stages on different
machines set build.artifact_store: broker, so documentation trees and sites
travel through the broker.

/health and /metrics are served on --metrics-addr. SIGTERM stops the process
gracefully: handlers in flight finish, their messages are acknowledged.`,
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
	cmd.Flags().StringVar(&metricsAddr, "metrics-addr", ":9090", `address of /health and /metrics ("" for none)`)
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
