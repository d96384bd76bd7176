package discovery

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/docweave/docweave/config"
)

// registerHooks registers docweave's webhook on every repository taken
// from f that does not have it yet: a webhook already pointing at the
// same URL counts as registered; otherwise one is created for push events,
// signed with the forge's secret. A failure is a warning of the forge: the
// repository is still built (on the schedule) and registration is tried
// again at the next scan.
func (s *Scanner) registerHooks(ctx context.Context, cfg *config.Config, f config.Forge, st *ForgeState) {
	target := strings.TrimRight(f.Webhooks.URL, "/") + f.WebhookPath()
	secret := webhookSecret(cfg, f.Type)
	c := s.client(cfg)
	d := newDialect(f, c)
	registered := 0
	for i := range st.Repositories {
		r := &st.Repositories[i]
		if r.Hook {
			continue
		}
		lr := listedRepo{ID: r.ID, FullPath: r.FullPath}
		urls, err := d.hookURLs(ctx, lr)
		if err == nil && !slices.Contains(urls, target) {
			err = d.addHook(ctx, lr, target, secret)
		}
		if err != nil {
			st.warn(fmt.Sprintf("register the webhook of %s: %v", r.FullPath, err))
			continue
		}
		r.Hook = true
		registered++
	}
	st.Requests += int(c.requests.Load())
	if registered > 0 {
		s.Log.Info().Str("forge", f.Label()).Str("url", target).Int("repositories", registered).Msg("webhooks registered")
	}
}

// webhookSecret is the secret the webhook server verifies the forge's
// deliveries with.
func webhookSecret(cfg *config.Config, forgeType string) string {
	switch forgeType {
	case config.ForgeGitHub:
		return cfg.Daemon.Webhooks.GitHubSecret
	case config.ForgeGitLab:
		return cfg.Daemon.Webhooks.GitLabToken
	case config.ForgeForgejo:
		return cfg.Daemon.Webhooks.ForgejoSecret
	}
	return ""
}
