package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon"
)

func init() { registerCommand(newDaemonCommand) }

func newDaemonCommand(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "daemon",
		Short: "Keep the site current: every stage and the four HTTP servers in one process",
		Long: `daemon runs every pipeline stage and the docs, webhook, admin and live-reload
servers in this process. It builds at start-up, on the cron schedule
daemon.sync.schedule, on signed forge webhooks and on POST /api/build/trigger;
triggers that arrive during a build coalesce into one follow-up build, and a
build in which nothing changed is skipped (skip_if_unchanged).

The broker is broker.url when set. Otherwise the daemon embeds a NATS server and connects to
it in-process, opening no port; with broker.embedded.listen it also accepts
other processes there, with credentials (configured, or generated into the
workspace). Every subject, stream and bucket is scoped by site.name, so sites
can share a broker; a daemon refuses to start when a live process of another
configuration uses its site name there.

The servers listen on daemon.http.bind_address (default: every interface) or
their own *_bind_address. All ports are bound before any server starts; a port in use stops start-up
with "<server> port <port>: <cause>". SIGTERM or SIGINT stops it gracefully:
no new triggers, servers drained, the running stage finishes or hands its
message back; the exit code is then 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := g.logger()
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			cfg, err := config.Load(g.configPath, config.ModeDaemon)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := daemon.Run(ctx, cfg, daemon.Options{Log: log}); err != nil {
				return &exitError{code: 1, err: err}
			}
			return nil
		},
	}
}
