package daemon

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon/preview"
	"github.com/docweave/docweave/httpsrv/admin"
	"github.com/docweave/docweave/httpsrv/docs"
	"github.com/docweave/docweave/httpsrv/webhook"
	"github.com/docweave/docweave/pipeline/artifact"
)

// previewsDir is where previews live: beside the published site, in the
// output directory's docweave-owned entry (which output.clean keeps).
func previewsDir(cfg *config.Config) string {
	return filepath.Join(cfg.Output.Directory, ".docweave", "previews")
}

// startPreviews opens the previews (daemon.previews) and builds them in
// the background until ctx ends; nil when previews are off.
func startPreviews(ctx context.Context, cfg *config.Config, states *buildstate.States, store artifact.Store, log zerolog.Logger) (*preview.Manager, error) {
	p := cfg.Daemon.Previews
	if !p.Enabled {
		return nil, nil
	}
	log = log.With().Str("component", "previews").Logger()
	var reporter preview.Reporter
	if p.Report {
		reporter = preview.ForgeReporter{Config: cfg}
	}
	m, err := preview.Open(preview.Options{
		Builder: &preview.Builder{Config: cfg, Store: store, States: states,
			Work: filepath.Join(cfg.WorkspaceRoot(), "previews"), Log: log},
		Dir: previewsDir(cfg), TTL: p.TTL, Max: p.Max, PublicURL: p.PublicURL, Reporter: reporter, Log: log,
	})
	if err != nil {
		return nil, err
	}
	go m.Run(ctx)
	return m, nil
}

// previewLookup is what the docs server asks of the previews.
func previewLookup(m *preview.Manager) docs.PreviewLookup {
	if m == nil {
		return nil
	}
	return func(id string) (docs.PreviewSite, bool) {
		s, ok := m.Site(id)
		if !ok {
			return docs.PreviewSite{}, false
		}
		return docs.PreviewSite{Dir: s.Dir, Repository: s.Repository, Ref: s.Ref, Commit: s.Commit, Title: s.Title, Untrusted: s.Untrusted}, true
	}
}

// previewSites is the docs server's view of the previews (nil without).
func (c *controlPlane) previewSites() docs.PreviewLookup {
	if c == nil {
		return nil
	}
	return previewLookup(c.previews)
}

// previewAPI is the admin server's view of the previews (nil without).
func (c *controlPlane) previewAPI() admin.Previews {
	if c == nil || c.previews == nil {
		return nil
	}
	return c.previews
}

// forgeNames name the forges in a preview's title.
var forgeNames = map[string]string{webhook.SourceGitHub: "GitHub pull request", webhook.SourceGitLab: "GitLab merge request", webhook.SourceForgejo: "pull request"}

// pullRequests is the webhook server's view of the previews (nil
// without): a request opened or updated builds the preview of its head,
// one closed or merged removes it. A request from a fork is previewed only
// with daemon.previews.forks, from the fork's clone URL (http or https,
// without credentials) and as untrusted content.
func (c *controlPlane) pullRequests() webhook.PullRequestFunc {
	if c == nil || c.previews == nil {
		return nil
	}
	m, p := c.previews, c.cfg.Daemon.Previews
	return func(_ context.Context, pr webhook.PullRequest) (webhook.PullRequestResult, error) {
		req := preview.Request{Repository: pr.Repository, Ref: pr.HeadRef, Commit: pr.HeadCommit,
			Key:   fmt.Sprintf("%s:%s#%d", pr.Source, pr.Repository, pr.Number),
			Title: fmt.Sprintf("%s #%d", forgeNames[pr.Source], pr.Number)}
		if pr.Action == webhook.PullRequestClose {
			if !m.DeleteRequest(req) {
				return webhook.PullRequestResult{Ignored: fmt.Sprintf("%s has no preview", req.Title)}, nil
			}
			return webhook.PullRequestResult{}, nil
		}
		if pr.Fork {
			if !p.Forks {
				return webhook.PullRequestResult{Ignored: fmt.Sprintf("%s of %s comes from a fork; daemon.previews.forks is off", req.Title, pr.Repository)}, nil
			}
			u, err := url.Parse(pr.HeadCloneURL)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
				return webhook.PullRequestResult{Ignored: fmt.Sprintf("%s comes from a fork without an http(s) clone URL", req.Title)}, nil
			}
			req.CloneURL, req.Untrusted = pr.HeadCloneURL, true
		}
		if p.Report && pr.API != "" && pr.Project != "" {
			req.Report = &preview.ReportTarget{Forge: pr.Source, API: pr.API, Project: pr.Project, Commit: pr.HeadCommit}
		}
		st, err := m.Request(req)
		if err != nil {
			return webhook.PullRequestResult{}, err
		}
		return webhook.PullRequestResult{PreviewID: st.ID, URL: st.URL}, nil
	}
}

// warnPreviewsSplit says, in a split deployment's process, that previews
// are on in the configuration but built only by `docweave daemon`.
func warnPreviewsSplit(cfg *config.Config, log zerolog.Logger) {
	if cfg.Daemon.Previews.Enabled {
		log.Warn().Msg("daemon.previews is on, but previews are built and served only by `docweave daemon` (one process); this process serves none (docs/previews.md)")
	}
}
