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
)

func init() { registerCommand(newServeCommand) }

func newServeCommand(g *globalFlags) *cobra.Command {
	var servers string
	cmd := &cobra.Command{
		Use:   "serve [--servers docs,webhook,admin,livereload]",
		Short: "Run the daemon's HTTP servers on their own, against a shared NATS broker",
		Long: `serve runs the chosen HTTP servers (default: all four) against a broker shared
with the site's other processes (broker.url, or the daemon's listening
embedded broker, as for "docweave stage"), for deployments whose stages run
as separate processes. The servers listen on daemon.http.bind_address or
their own *_bind_address, on their ports.

A process that runs the webhook or admin server is a control-plane process.
Several may run: they elect a leader through a lease in the KV bucket
docweave-control, and only the leader coordinates builds (one at a time,
triggers coalesced), runs the schedule daemon.sync.schedule and requests a
start-up build when it takes the lease; the others forward triggers and
build queries to it. Docs and live-reload servers can run as many replicas
as you like; with the broker's object store (build.artifact_store: auto or
broker) each docs server fetches every published site from the broker and
switches to it atomically.

All chosen ports are bound before any server starts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger()
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			which := splitList(servers)
			if len(which) == 0 {
				return &exitError{code: 2, err: fmt.Errorf("--servers: name at least one of %s", strings.Join(daemon.AllServers, ", "))}
			}
			cfg, err := config.Load(g.configPath, config.ModeDaemon)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			if !cmd.Flags().Changed("servers") {
				which = daemon.EnabledServers(cfg)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := daemon.RunServers(ctx, cfg, which, daemon.Options{Log: log}); err != nil {
				return &exitError{code: 1, err: err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&servers, "servers", strings.Join(daemon.AllServers, ","), "comma-separated servers to run (default: all four, without livereload when daemon.http.livereload_enabled is false)")
	return cmd
}
