package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon"
)

func init() { registerCommand(newStatusCommand) }

func newStatusCommand(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the control plane's view of the site: processes, every stage and who runs it, the last published build",
		Long: `status connects to the site's broker (broker.url, or the daemon's embedded
broker when it listens) and prints what the control plane sees: the process
that leads, the site's live processes and the stages each runs, every stage
of the pipeline with its live processes and its backlog (a stage no process
runs is marked; a build waiting on it fails with STAGE_UNAVAILABLE after
build.stage_timeout), and the last published build.

It exits 1 when a stage that builds need has no live process.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(g.configPath, config.ModeDaemon)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), 30*time.Second)
			defer cancel()
			v, err := daemon.ReadControlView(ctx, cfg)
			if err != nil {
				return &exitError{code: 2, err: fmt.Errorf("read the site's state from its broker: %w", err)}
			}
			if missing := printControlView(cmd.OutOrStdout(), v); len(missing) > 0 {
				return &exitError{code: 1, err: fmt.Errorf("no live process runs %s, which builds need: start `docweave stage %s` (or add them to a process's list)",
					strings.Join(missing, ", "), strings.Join(missing, ","))}
			}
			return nil
		},
	}
}

// printControlView writes the view and returns the needed stages that no
// live process runs.
func printControlView(w io.Writer, v *daemon.ControlView) []string {
	leader := v.Leader
	if leader == "" {
		leader = "none"
	}
	fmt.Fprintf(w, "leader: %s\n\n", leader)
	fmt.Fprintf(w, "processes: %d\n", len(v.Processes))
	for _, p := range v.Processes {
		stages := strings.Join(p.Stages, ",")
		if stages == "" {
			stages = "-"
		}
		fmt.Fprintf(w, "  %s on %s (pid %d, since %s): %s\n", p.Role, p.Host, p.PID, p.StartedAt.Format(time.RFC3339), stages)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STAGE\tPROCESSES\tWAITING\tIN FLIGHT\tREDELIVERED\t")
	var missing []string
	for _, s := range v.Stages {
		procs := fmt.Sprint(s.Processes)
		needed := slices.Contains(v.Needed, s.Name)
		switch {
		case s.Processes == 0 && needed:
			procs = "NONE"
			missing = append(missing, s.Name)
		case s.Processes == 0:
			procs = "0 (not needed)"
		}
		if !s.Consumer {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t\n", s.Name, procs)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t\n", s.Name, procs, s.Lag.Pending, s.Lag.AckPending, s.Lag.Redelivered)
	}
	tw.Flush()
	fmt.Fprintln(w)
	switch {
	case v.State != nil:
		fmt.Fprintf(w, "published: build %s, %d pages, finished %s\n", v.State.BuildID, v.State.Pages, v.State.FinishedAt.Format(time.RFC3339))
	case v.Published != "":
		fmt.Fprintf(w, "published: build %s\n", v.Published)
	default:
		fmt.Fprintln(w, "published: nothing yet")
	}
	return missing
}
