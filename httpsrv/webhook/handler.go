package webhook

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/rs/zerolog"
)

// Sources name who sent a trigger, in Trigger.Source and in logs.
const (
	SourceGitHub  = "github"
	SourceGitLab  = "gitlab"
	SourceForgejo = "forgejo"
	SourceGeneric = "generic"
)

// Endpoint paths. The forge paths also answer on the specification's
// neutral names (/webhooks/forge1, forge2, forge3, in this order), so a
// deployment written against the specification works unchanged.
const (
	PathGitHub       = "/webhooks/github"
	PathGitLab       = "/webhooks/gitlab"
	PathForgejo      = "/webhooks/forgejo"
	PathGitHubAlias  = "/webhooks/forge1"
	PathGitLabAlias  = "/webhooks/forge2"
	PathForgejoAlias = "/webhooks/forge3"
	PathGeneric      = "/webhook"
	PathHealth       = "/health"
)

// DefaultMaxBodyBytes caps a webhook body when Options.Secrets.MaxBodyBytes
// is not positive; it matches the configuration default (5 MiB), which
// leaves room for GitHub pushes with many commits.
const DefaultMaxBodyBytes = 5 << 20

// Trigger is what a webhook asks the daemon to do: build the site because
// the named repositories may have changed. The daemon turns it into a
// build.requested message; coalescing with a running build is its job.
type Trigger struct {
	// Source is who sent the webhook: github, gitlab, forgejo or generic.
	Source string
	// Event is "push" for every forge push (branch or tag) and "request"
	// for the generic endpoint.
	Event string
	// DeliveryID is the forge's delivery identifier (X-GitHub-Delivery,
	// X-Gitlab-Event-UUID, X-Forgejo-Delivery, X-Docweave-Delivery), so an
	// operator can match a build to an entry in the forge's delivery log.
	DeliveryID string
	// Repositories are the names of the configured repositories the push
	// concerns; never empty.
	Repositories []string
	// Branch is the pushed branch ("" for a tag push or a generic request
	// without a branch).
	Branch string
	// Tag is the pushed tag, set only when Options.Versioned is on.
	Tag string
	// Commit is the commit the ref points to after the push ("" when the
	// sender does not say).
	Commit string
	// Reason is a short human description for the build report, such as
	// "github push to main of docs-team/handbook".
	Reason string
}

// TriggerResult is the daemon's answer to a Trigger: the build that will
// include the change, and whether the request joined a build already
// queued instead of starting a new one.
type TriggerResult struct {
	BuildID   string
	Coalesced bool
}

// Options is everything the webhook server needs. It holds small config
// structs, not the whole configuration, so tests and other binaries can
// build one without a configuration file.
type Options struct {
	// Secrets holds the per-forge secrets and the body size cap. An empty
	// secret disables its endpoint: every request to it gets 401.
	Secrets config.Webhooks
	// Repositories are the configured repositories; a push is matched to
	// them by URL and branch.
	Repositories []config.Repository
	// CurrentRepositories, when set, is asked on every request instead of
	// Repositories: the configured repositories and those forge discovery
	// found since the server started.
	CurrentRepositories func() []config.Repository
	// Trigger queues a build. It must not be nil; an error from it is
	// answered with 503 so the forge records a failed delivery.
	Trigger func(ctx context.Context, t Trigger) (TriggerResult, error)
	// Versioned says every branch and tag may be a documentation version
	// (versioning.enabled): a push to any branch or tag of a configured
	// repository, and the deletion of one, triggers a build — discover's
	// patterns and skip evaluation decide what is rebuilt. Off, builds
	// follow the configured branch and tag pushes and deletions trigger none.
	Versioned bool
	// PullRequests builds and removes previews on pull-request events
	// (docs/previews.md); nil ignores them (previews off).
	PullRequests PullRequestFunc
	// Log receives one structured line per request. Secrets, signatures
	// and bodies are never logged.
	Log zerolog.Logger
}

// errNoTrigger is what a handler built without Options.Trigger answers
// with, instead of panicking on the first push.
var errNoTrigger = errors.New("webhook server built without a Trigger function")

// server is the state shared by every endpoint; it is immutable after New,
// so requests need no locking.
type server struct {
	secrets   config.Webhooks
	maxBody   int64
	repos     *matcher
	current   func() []config.Repository
	trigger   func(ctx context.Context, t Trigger) (TriggerResult, error)
	versioned bool
	previews  PullRequestFunc
	log       zerolog.Logger
	refusals  zerolog.Logger
}

// matcher is the repositories a request is matched against.
func (s *server) matcher() *matcher {
	if s.current == nil {
		return s.repos
	}
	m, _ := newMatcher(s.current())
	return m
}

// New returns the webhook server's handler with every route of the
// package: the three forge endpoints and their aliases, the generic
// endpoint and /health.
func New(opts Options) http.Handler {
	log := opts.Log.With().Str("server", "webhook").Logger()
	s := &server{
		secrets:   opts.Secrets,
		maxBody:   int64(opts.Secrets.MaxBodyBytes),
		trigger:   opts.Trigger,
		current:   opts.CurrentRepositories,
		versioned: opts.Versioned,
		previews:  opts.PullRequests,
		log:       log,
		// Refusals come from the network, possibly from a scanner; sample
		// them so they cannot flood the log.
		refusals: log.Sample(&zerolog.BurstSampler{Burst: 20, Period: time.Second}),
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBodyBytes
	}
	if s.trigger == nil {
		s.trigger = func(context.Context, Trigger) (TriggerResult, error) { return TriggerResult{}, errNoTrigger }
	}
	var unmatchable []string
	s.repos, unmatchable = newMatcher(opts.Repositories)
	for _, name := range unmatchable {
		log.Warn().Str("repository", name).
			Msg("repository URL cannot be compared with webhook payloads; forge pushes will not trigger it")
	}

	mux := http.NewServeMux()
	post := func(path string, fn endpointFunc) {
		mux.Handle("POST "+path, s.endpoint(fn))
		mux.Handle(path, s.endpoint(onlyMethods("POST")))
	}
	github := s.forgeEndpoint(githubForge(opts.Secrets.GitHubSecret))
	gitlab := s.forgeEndpoint(gitlabForge(opts.Secrets.GitLabToken))
	forgejo := s.forgeEndpoint(forgejoForge(opts.Secrets.ForgejoSecret))
	post(PathGitHub, github)
	post(PathGitHubAlias, github)
	post(PathGitLab, gitlab)
	post(PathGitLabAlias, gitlab)
	post(PathForgejo, forgejo)
	post(PathForgejoAlias, forgejo)
	post(PathGeneric, s.generic)
	mux.Handle("GET "+PathHealth, s.endpoint(health))
	mux.Handle(PathHealth, s.endpoint(onlyMethods("GET, HEAD")))
	mux.Handle("/", s.endpoint(notFound))
	return mux
}

// endpointFunc handles one request and describes the answer; the
// endpoint wrapper writes it and logs it, so every route answers and logs
// the same way.
type endpointFunc func(r *http.Request) reply

// endpoint adapts an endpointFunc to http.Handler: it times the request,
// turns a panic into a 500 instead of a dropped connection, writes the
// reply and logs one line.
func (s *server) endpoint(fn endpointFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rep := s.run(fn, r)
		rep.write(w, r)
		s.logReply(r, rep, time.Since(start))
	})
}

// run calls fn and recovers from a panic in it. Unlike the other servers
// (httpsrv.RecoverPanics) the panic becomes a reply, so it is logged and
// counted like every other answer of this server.
func (s *server) run(fn endpointFunc, r *http.Request) (rep reply) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			rep = internalError(panicError{v})
		}
	}()
	return fn(r)
}

// health answers liveness probes.
func health(*http.Request) reply {
	return reply{status: http.StatusOK, body: statusBody{Status: "ok"}, outcome: outcomeHealth}
}

// notFound answers every path that is not an endpoint.
func notFound(r *http.Request) reply {
	return errorReply(http.StatusNotFound, CodeNotFound,
		"no endpoint "+r.URL.Path+"; webhooks are POST "+PathGitHub+", "+PathGitLab+", "+PathForgejo+" and "+PathGeneric)
}

// onlyMethods answers a known path requested with a method it does not
// serve: 405 with the Allow header the HTTP specification requires.
func onlyMethods(allow string) endpointFunc {
	return func(r *http.Request) reply {
		rep := errorReply(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			r.Method+" is not allowed on "+r.URL.Path+"; use "+allow)
		rep.allow = allow
		return rep
	}
}
