package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/linkcheck"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/report"
)

func init() { registerCommand(newLinksCommand) }

func newLinksCommand(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "links",
		Short: "Follow the results of link verification",
		Long: `links works with the broken-link events link verification publishes on
daemon.link_verification.subject (see docs/links.md).`,
	}
	cmd.AddCommand(newLinksTailCommand(g))
	return cmd
}

// tailOptions are the flags of `docweave links tail`.
type tailOptions struct {
	broker  string
	site    string
	subject string
	replay  bool
	since   string
	build   string
	asJSON  bool
	count   int
}

func newLinksTailCommand(g *globalFlags) *cobra.Command {
	var o tailOptions
	cmd := &cobra.Command{
		Use:   "tail",
		Short: "Print broken-link events as they arrive",
		Long: `tail subscribes to the broken-link events and prints one line per event as it
arrives, until interrupted. Each site keeps its events in its stream
<site>_DOCWEAVE_LINKS for 30 days, so a subscriber that starts late can catch
up with --replay (every kept event) or --since (events of the last duration,
e.g. 2h, or since an RFC 3339 time).

The broker and site come from the configuration file: broker.url, or the
daemon's embedded broker when it listens (broker.embedded.listen; its
generated credentials are read from the workspace), and site.name. --broker
and --site override them; without a configuration file the defaults apply
(nats://127.0.0.1:4222 and the site "docweave").
With --json each event is printed as its JSON payload, one per line
(docs/schemas/broken-link.v1.schema.json).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runLinksTail(ctx, cmd, g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.broker, "broker", "", "broker URL, credentials allowed as user:password@ (overrides broker.url)")
	f.StringVar(&o.site, "site", "", "site whose events to follow (overrides site.name)")
	f.StringVar(&o.subject, "subject", "", "subject of the events (overrides daemon.link_verification.subject)")
	f.BoolVar(&o.replay, "replay", false, "print every kept event first, then follow")
	f.StringVar(&o.since, "since", "", "print kept events since a duration ago (2h) or an RFC 3339 time, then follow")
	f.StringVar(&o.build, "build", "", "only events of this build ID")
	f.BoolVar(&o.asJSON, "json", false, "print each event as its JSON payload")
	f.IntVar(&o.count, "count", 0, "stop after this many events (0: follow until interrupted)")
	return cmd
}

// tailConfig loads the configuration when there is a file; a subscriber on
// another machine may have none, and then the defaults and flags apply
// (found reports which).
func tailConfig(path string, explicit bool) (cfg *config.Config, found bool, err error) {
	if _, err := os.Stat(path); err != nil && !explicit {
		d := config.Default()
		d.Mode = config.ModeDaemon
		return &d, false, nil
	}
	cfg, err = config.Load(path, config.ModeDaemon)
	return cfg, err == nil, err
}

// tailBroker says how to reach the broker: --broker, else the
// configuration's shared broker, else (with no configuration file) the
// specification's default URL.
func tailBroker(cfg *config.Config, found bool, o tailOptions) (natsbroker.Options, error) {
	const name = "docweave-links-tail"
	if o.broker != "" {
		return natsbroker.Options{URL: o.broker, Name: name, Site: cfg.SiteName()}, nil
	}
	opts, err := natsbroker.OptionsFor(cfg, natsbroker.RoleJoin, name)
	if errors.Is(err, natsbroker.ErrNoSharedBroker) {
		if !found {
			return natsbroker.Options{URL: config.DefaultBrokerURL, Name: name, Site: cfg.SiteName()}, nil
		}
		return opts, fmt.Errorf("%w: the daemon's embedded broker is in-process only; set broker.embedded.listen (or broker.url) so subscribers can reach it, or pass --broker", natsbroker.ErrNoSharedBroker)
	}
	return opts, err
}

func runLinksTail(ctx context.Context, cmd *cobra.Command, g *globalFlags, o tailOptions) error {
	if o.replay && o.since != "" {
		return &exitError{code: 2, err: errors.New("--replay and --since exclude each other")}
	}
	cfg, found, err := tailConfig(g.configPath, cmd.Flags().Changed("config"))
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if o.site != "" {
		if !config.ValidSiteName(o.site) {
			return &exitError{code: 2, err: fmt.Errorf("--site %q: expected lower-case letters, digits and -", o.site)}
		}
		cfg.Site.Name = o.site
	}
	lv := cfg.Daemon.LinkVerification
	if o.subject != "" {
		lv.Subject = o.subject
	}
	deliver, err := deliveryFrom(o, time.Now())
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	bopts, err := tailBroker(cfg, found, o)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	broker, err := natsbroker.Open(cctx, bopts)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer broker.Close()
	if err := linkcheck.EnsureLinkStream(cctx, broker.JS, lv.Subject); err != nil {
		return &exitError{code: 2, err: err}
	}
	deliver.FilterSubjects = []string{lv.Subject}
	cons, err := broker.JS.OrderedConsumer(cctx, linkcheck.LinksStreamName, deliver)
	if err != nil {
		return &exitError{code: 2, err: fmt.Errorf("subscribe to %s on stream %s: %w", lv.Subject, broker.Scope().Name(linkcheck.LinksStreamName), err)}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "following %s of site %s on %s\n", lv.Subject, broker.Site(), broker.Describe())
	out := cmd.OutOrStdout()
	printed := 0
	for o.count == 0 || printed < o.count {
		msg, err := cons.Next(jetstream.FetchContext(ctx))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return &exitError{code: 1, err: fmt.Errorf("receive broken-link events: %w", err)}
		}
		ev, err := events.DecodeBrokenLink(msg.Data())
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "skipping a message on %s: %v\n", msg.Subject(), err)
			continue
		}
		if o.build != "" && ev.BuildID != o.build {
			continue
		}
		if o.asJSON {
			fmt.Fprintln(out, strings.TrimSpace(string(msg.Data())))
		} else {
			printBrokenLink(out, ev)
		}
		printed++
	}
	return nil
}

// deliveryFrom turns --replay and --since into where the subscription
// starts: by default only new events.
func deliveryFrom(o tailOptions, now time.Time) (jetstream.OrderedConsumerConfig, error) {
	c := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverNewPolicy}
	switch {
	case o.replay:
		c.DeliverPolicy = jetstream.DeliverAllPolicy
	case o.since != "":
		start, err := parseSince(o.since, now)
		if err != nil {
			return c, err
		}
		c.DeliverPolicy, c.OptStartTime = jetstream.DeliverByStartTimePolicy, &start
	}
	return c, nil
}

func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: expected a duration such as 2h or an RFC 3339 time such as 2026-05-01T10:00:00Z", s)
}

// printBrokenLink writes one event as one line for people.
func printBrokenLink(w io.Writer, ev *events.BrokenLink) {
	status := ev.Reason
	if ev.StatusCode != 0 {
		status = fmt.Sprintf("%d %s", ev.StatusCode, ev.Reason)
	}
	where := ev.SourcePage
	if ev.SourceFile != "" {
		where = ev.Repository + ":" + ev.SourceFile
	}
	fmt.Fprintf(w, "%s  %s  %s  %s  in %s (%s, broken %d× since %s)\n",
		ev.LastSeen.UTC().Format(time.RFC3339), ev.BuildID, status, ev.URL, where, ev.Element,
		ev.FailureCount, ev.FirstSeen.UTC().Format(time.RFC3339))
}

// printLinks writes the figures of a verification after a direct build.
func printLinks(w io.Writer, l *report.LinkVerification) {
	if l.Status == report.LinksFailed {
		fmt.Fprintf(w, "links:  verification failed: %s\n", l.Error)
		return
	}
	fmt.Fprintf(w, "links:  %d checked (%d internal, %d external; %d from the cache, %s) in %s — %d broken, %d need authentication, %d rate-limited, %d transient, %d skipped\n",
		l.Checked, l.Internal, l.External, l.Cached, words.Plural(l.Requests, "request"), time.Duration(l.DurationMS)*time.Millisecond,
		l.Broken, l.NeedsAuth, l.RateLimited, l.Transient, l.Skipped)
	if l.Unverifiable > 0 {
		fmt.Fprintf(w, "        %d external fragments unverifiable (pages whose headings scripts make, or no HTML)\n", l.Unverifiable)
	}
	if l.Status == report.LinksDegraded {
		fmt.Fprintf(w, "        degraded: %s\n", l.Error)
	}
	for _, p := range l.BrokenLinks {
		where := p.SourcePage
		if p.SourceFile != "" {
			where = p.Repository + ":" + p.SourceFile
		}
		fmt.Fprintf(w, "  broken %s in %s: %s\n", p.URL, where, p.Error)
	}
	if l.BrokenEvents > len(l.BrokenLinks) {
		fmt.Fprintf(w, "  … and %d more (see the broken-link events, `docweave links tail --replay`)\n", l.BrokenEvents-len(l.BrokenLinks))
	}
}
