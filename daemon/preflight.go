package daemon

import (
	"context"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/preflight"
)

// warnRemoteProblems runs the preflight check of the configured
// repositories once at start-up and logs each mistake (a repository,
// branch or path that is not on its remote) with its file, line and key
// and what does exist — the daemon keeps running and building what it
// can; the build reports repeat the codes.
func warnRemoteProblems(ctx context.Context, cfg *config.Config, log zerolog.Logger) {
	for _, r := range preflight.Check(ctx, cfg, cfg.Build.CloneConcurrency) {
		for _, p := range r.Problems {
			ev := log.Warn().Str("code", p.Code).Str("repository", p.Repository).Str("key", p.Key)
			if p.Where != "" {
				ev = ev.Str("where", p.Where)
			}
			ev.Msg(p.Message)
		}
	}
}
