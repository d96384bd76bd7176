package main

import (
	"context"
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/preflight"
	"github.com/docweave/docweave/report"
)

// checkRemotes is build's first step: the preflight check of every
// configured repository. A documentation path that matches nothing stops
// the build before any clone, named with its file, line and key and the
// folders that do exist (the build would otherwise go on without that
// part of the site, with a warning). A repository, branch or credential
// the remote refuses is left to the clone stage, which fails that
// repository alone as before (the summary then names its key and line);
// a remote that cannot be reached is logged and left to the clone's
// retries.
func checkRemotes(ctx context.Context, w io.Writer, cfg *config.Config, log zerolog.Logger) error {
	results := preflight.Check(ctx, cfg, cfg.Build.CloneConcurrency)
	problems := 0
	for _, r := range results {
		if r.Unreachable != nil {
			log.Warn().Err(r.Unreachable).Str("repository", r.Repository.Name).Msg("remote not checked before the build; the clone will try")
		}
		for _, p := range r.Problems {
			if p.Code == report.CodeDocsPathMissing {
				fmt.Fprintln(w, p.String())
				problems++
			}
		}
	}
	if problems > 0 {
		return fmt.Errorf("%s in the configuration, found on the remotes before any clone (fix them, or build anyway with --check-remote=false)", words.Plural(problems, "problem"))
	}
	return nil
}
