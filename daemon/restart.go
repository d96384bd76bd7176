package daemon

import (
	"context"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// dropStaleWork prepares a daemon that owns its broker to start after an
// earlier run that did not stop cleanly (killed, or the machine lost): the
// messages that run had received but not finished are handed back for
// delivery at once rather than after their ack wait, and the returned
// build ID — this start — tells the runner to drop every message of an
// older build. Those builds will never finish (their coordinator is gone),
// and finishing them late would only redo work the start-up build does
// again; the saved state and the published site stay as the last finished
// build left them.
func dropStaleWork(ctx context.Context, js roles.Consumers, stages []pipeline.Stage, log zerolog.Logger) string {
	epoch := events.NewBuildID()
	held := 0
	for _, st := range stages {
		n, err := pipeline.RedeliverNow(ctx, js, st)
		if err != nil {
			// The messages then come back after their ack wait; they are
			// dropped all the same.
			log.Warn().Err(err).Str("stage", st.Name).Msg("unfinished work of the last run not handed back at once")
			continue
		}
		held += n
	}
	if held > 0 {
		log.Info().Int("messages", held).Msg("work an earlier run left unfinished is dropped")
	}
	return epoch
}
