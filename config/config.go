// Package config is docweave's configuration model: the YAML file an operator
// writes, its defaults, and the validation that turns a mistake into an error
// naming the key and what was expected. Every other package reads a *Config
// and never a raw map, so there is exactly one place where keys are spelled.
package config

import (
	"fmt"
	"time"
)

// Mode says which command loads the configuration, because a few defaults
// (skip_if_unchanged) and rules (output_dir must equal output.directory)
// depend on whether docweave runs a one-shot build or a long-lived daemon.
type Mode int

const (
	// ModeDirect is `docweave build`: one build, then exit.
	ModeDirect Mode = iota
	// ModeDaemon is `docweave daemon` and the stage/serve processes.
	ModeDaemon
	// ModeIngress is `docweave ingress`, the ingress listing interface; it
	// is the only mode that requires API keys and an ingress source.
	ModeIngress
)

// String names the mode the way the command line does, for logs and errors.
func (m Mode) String() string {
	switch m {
	case ModeDirect:
		return "direct"
	case ModeDaemon:
		return "daemon"
	case ModeIngress:
		return "ingress"
	default:
		return fmt.Sprintf("mode(%d)", int(m))
	}
}

// Config is the whole configuration file after defaults, ${VAR} expansion
// and validation.
type Config struct {
	Repositories []Repository `mapstructure:"repositories" yaml:"repositories"`
	// Forges are scanned for more repositories (see Forge).
	Forges     []Forge       `mapstructure:"forges" yaml:"forges"`
	Build      BuildSettings `mapstructure:"build" yaml:"build"`
	Daemon     Daemon        `mapstructure:"daemon" yaml:"daemon"`
	Versioning Versioning    `mapstructure:"versioning" yaml:"versioning"`
	Generator  Generator     `mapstructure:"generator" yaml:"generator"`
	Output     Output        `mapstructure:"output" yaml:"output"`
	Ingress    Ingress       `mapstructure:"ingress" yaml:"ingress"`
	// Site and Broker: which site this is, and where its stages meet
	// (config/broker.go).
	Site   Site   `mapstructure:"site" yaml:"site"`
	Broker Broker `mapstructure:"broker" yaml:"broker"`

	// Path is the file the configuration was read from ("" when built in
	// code); relative paths in the file are resolved against its directory.
	Path string `mapstructure:"-" yaml:"-"`
	// Mode is the mode the configuration was loaded for.
	Mode Mode `mapstructure:"-" yaml:"-"`

	// loadState is what Load learned that the structs cannot hold; it is
	// unexported so that code building a Config by hand never has to care.
	loadState loadState
	// discovered holds the repositories forge discovery found; copies of
	// a Config share it (see SetDiscovered).
	discovered *discoveredRepos
}

// Repository is one Git repository whose documentation roots are aggregated.
type Repository struct {
	URL    string   `mapstructure:"url" yaml:"url"`
	Name   string   `mapstructure:"name" yaml:"name"`
	Branch string   `mapstructure:"branch" yaml:"branch"`
	Paths  []string `mapstructure:"paths" yaml:"paths"`
	Auth   Auth     `mapstructure:"auth" yaml:"auth"`
	// Description is the sentence the front page's card of the repository
	// shows; empty means the first paragraph of its root page.
	Description string `mapstructure:"description" yaml:"description"`
	// Trusted is nil when the file does not set it; use IsTrusted (default
	// true). An untrusted repository's raw HTML is sanitized and its .html
	// and .svg files are not published.
	Trusted *bool `mapstructure:"trusted" yaml:"trusted"`
	// OriginalSite is the site the repository's documentation was
	// published on before, so that links written as its URLs lead to the
	// aggregated pages (see docs/repositories.md). Zero when not set.
	OriginalSite OriginalSite `mapstructure:"original_site" yaml:"original_site"`
}

// OriginalSite says where a repository's files were published on the site
// its documentation was written for: links and images written as that
// site's URLs (absolute, or rooted in the repository's own pages) are
// resolved to the aggregated pages and files.
type OriginalSite struct {
	// URL is the site's address, absolute (https://prometheus.io/).
	URL string `mapstructure:"url" yaml:"url"`
	// Paths maps a URL path prefix of the site ("/docs/", starting and
	// ending with "/") to the repository folder published there ("docs/";
	// "." or "/" for the repository's root).
	Paths map[string]string `mapstructure:"paths" yaml:"paths"`
}

// IsSet reports whether the repository declares an original site.
func (o OriginalSite) IsSet() bool { return o.URL != "" || len(o.Paths) > 0 }

// AuthType selects how docweave authenticates to a repository's remote.
type AuthType string

// The authentication kinds of repositories[].auth.type.
const (
	AuthNone  AuthType = ""
	AuthToken AuthType = "token"
	AuthBasic AuthType = "basic"
	AuthSSH   AuthType = "ssh"
)

// Auth holds repository credentials; its String method redacts secrets so a
// struct dump in a log line never leaks them.
type Auth struct {
	Type     AuthType `mapstructure:"type" yaml:"type"`
	Token    string   `mapstructure:"token" yaml:"token"`
	Username string   `mapstructure:"username" yaml:"username"`
	Password string   `mapstructure:"password" yaml:"password"`
	KeyPath  string   `mapstructure:"key_path" yaml:"key_path"`
	// KnownHosts is the known_hosts file that pins SSH host keys (type ssh).
	// Empty: $SSH_KNOWN_HOSTS, else ~/.ssh/known_hosts and
	// /etc/ssh/ssh_known_hosts.
	KnownHosts string `mapstructure:"known_hosts" yaml:"known_hosts"`
	// InsecureIgnoreHostKey accepts any SSH host key (type ssh). It gives up
	// protection against a man in the middle; for throw-away setups only.
	InsecureIgnoreHostKey bool `mapstructure:"insecure_ignore_host_key" yaml:"insecure_ignore_host_key"`
}

// String describes the auth without its secrets.
func (a Auth) String() string {
	if a.Type == AuthNone {
		return "none"
	}
	return string(a.Type) + " (credentials redacted)"
}

// BuildSettings tunes acquisition and rendering performance and the workspace.
type BuildSettings struct {
	CloneConcurrency int    `mapstructure:"clone_concurrency" yaml:"clone_concurrency"`
	CloneStrategy    string `mapstructure:"clone_strategy" yaml:"clone_strategy"` // fresh | update | auto
	ShallowDepth     int    `mapstructure:"shallow_depth" yaml:"shallow_depth"`
	// SparseCheckout acquires only the documentation roots (and the
	// top-level entries prune_allow names): a sparse checkout, and a
	// partial clone where the remote serves one. false checks out whole
	// repositories.
	SparseCheckout     bool          `mapstructure:"sparse_checkout" yaml:"sparse_checkout"`
	PruneNonDocPaths   bool          `mapstructure:"prune_non_doc_paths" yaml:"prune_non_doc_paths"`
	PruneAllow         []string      `mapstructure:"prune_allow" yaml:"prune_allow"`
	PruneDeny          []string      `mapstructure:"prune_deny" yaml:"prune_deny"`
	HardResetOnDiverge bool          `mapstructure:"hard_reset_on_diverge" yaml:"hard_reset_on_diverge"`
	CleanUntracked     bool          `mapstructure:"clean_untracked" yaml:"clean_untracked"`
	MaxRetries         int           `mapstructure:"max_retries" yaml:"max_retries"`
	RetryBackoff       string        `mapstructure:"retry_backoff" yaml:"retry_backoff"` // fixed | linear | exponential
	RetryInitialDelay  time.Duration `mapstructure:"retry_initial_delay" yaml:"retry_initial_delay"`
	RetryMaxDelay      time.Duration `mapstructure:"retry_max_delay" yaml:"retry_max_delay"`
	WorkspaceDir       string        `mapstructure:"workspace_dir" yaml:"workspace_dir"`
	NamespaceForges    string        `mapstructure:"namespace_forges" yaml:"namespace_forges"` // auto | always | never
	// ArtifactStore is where documentation trees and rendered sites are
	// kept between stages: "local" (a directory in the workspace; one
	// machine or a shared disk), "broker" (the JetStream object store, for
	// stages in separate processes without a shared disk) or "auto" (the
	// broker whenever other processes can reach the broker; see
	// ArtifactStoreFor).
	ArtifactStore string `mapstructure:"artifact_store" yaml:"artifact_store"`
	// ArtifactRetention is how long the broker's object store keeps an
	// object that the served site does not use: after a daemon build, with
	// no build running, objects stored longer ago and not named by the
	// saved state (the served site, its trees and units' outputs) are
	// removed, so the bucket does not grow with every build. Within it, a
	// unit whose address comes back (a reverted commit) reuses its output.
	ArtifactRetention time.Duration `mapstructure:"artifact_retention" yaml:"artifact_retention"`
	// AckWait is how long a stage's message may go without a sign of life
	// before the broker hands it to another replica; a live handler signals
	// progress every third of it, so it bounds how fast the work of a
	// process that died is taken over, not how long a stage may work.
	AckWait time.Duration `mapstructure:"ack_wait" yaml:"ack_wait"`
	// StageTimeout is how long a build may wait on a stage that no live
	// process runs (processes announce their stages; see docs/scale-out.md)
	// before it fails with STAGE_UNAVAILABLE naming the stage.
	StageTimeout time.Duration `mapstructure:"stage_timeout" yaml:"stage_timeout"`
	// RenderConcurrency is how many units (repositories, or versions of
	// them) one process renders at once; render replicas in other
	// processes add theirs.
	RenderConcurrency int `mapstructure:"render_concurrency" yaml:"render_concurrency"`
	// StreamReplicas is how many copies of docweave's streams, buckets and
	// artifacts a NATS cluster keeps: 3 on a three-node cluster lets builds
	// go on when one node is lost.
	StreamReplicas int `mapstructure:"stream_replicas" yaml:"stream_replicas"`
	// SkipIfUnchanged is nil when the file does not set it; use
	// ShouldSkipIfUnchanged, which applies the mode-dependent default.
	SkipIfUnchanged *bool `mapstructure:"skip_if_unchanged" yaml:"skip_if_unchanged"`
	// Limits bound what one repository version may publish.
	Limits InputLimits `mapstructure:"limits" yaml:"limits"`
	// BrokenLinks is what a link in page text that leads nowhere makes of
	// the build: "warn" (a warning, the default) or "fail" (an error: the
	// build exits 1). It covers unresolved links, missing fragments and
	// unresolved xrefs.
	BrokenLinks string `mapstructure:"broken_links" yaml:"broken_links"`
}

// BrokenLinks modes (build.broken_links).
const (
	BrokenLinksWarn = "warn"
	BrokenLinksFail = "fail"
)

// Daemon groups the daemon-mode sections.
type Daemon struct {
	LinkVerification LinkVerification `mapstructure:"link_verification" yaml:"link_verification"`
	Sync             Sync             `mapstructure:"sync" yaml:"sync"`
	Storage          Storage          `mapstructure:"storage" yaml:"storage"`
	HTTP             HTTP             `mapstructure:"http" yaml:"http"`
	Webhooks         Webhooks         `mapstructure:"webhooks" yaml:"webhooks"`
	Admin            Admin            `mapstructure:"admin" yaml:"admin"`
	Previews         Previews         `mapstructure:"previews" yaml:"previews"`
	// EmbeddedBroker is the older spelling of broker.embedded.listen: set
	// in a file, the embedded broker listens there (with credentials).
	EmbeddedBroker EmbeddedBroker `mapstructure:"embedded_broker" yaml:"embedded_broker"`
}

// Webhooks holds the secrets that authenticate forge webhooks. A forge whose
// secret is empty has its endpoint refuse every request: an unsigned
// webhook never triggers a build.
type Webhooks struct {
	// GitHubSecret verifies X-Hub-Signature-256 (HMAC-SHA256 of the body).
	GitHubSecret string `mapstructure:"github_secret" yaml:"github_secret"`
	// GitLabToken is compared with X-Gitlab-Token.
	GitLabToken string `mapstructure:"gitlab_token" yaml:"gitlab_token"`
	// ForgejoSecret verifies X-Forgejo-Signature / X-Gitea-Signature
	// (hex HMAC-SHA256 of the body).
	ForgejoSecret string `mapstructure:"forgejo_secret" yaml:"forgejo_secret"`
	// GenericSecret verifies X-Docweave-Signature-256 on /webhook
	// ("sha256=" + hex HMAC-SHA256 of the body).
	GenericSecret string `mapstructure:"generic_secret" yaml:"generic_secret"`
	// MaxBodyBytes caps a webhook body; larger bodies get 413.
	MaxBodyBytes int `mapstructure:"max_body_bytes" yaml:"max_body_bytes"`
}

// Admin configures the admin server beyond its port.
type Admin struct {
	// Token, when set, is required as "Authorization: Bearer <token>" on the
	// admin API (not on /health, /ready and /metrics). Off by default, as the
	// spec expects the admin port to be restricted at network level.
	Token string `mapstructure:"token" yaml:"token"`
}

// EmbeddedBroker is daemon.embedded_broker, kept as an alias of
// broker.embedded.listen: host defaults to 127.0.0.1 and port to 4222
// when only one of them is written; port 0 picks a free port.
type EmbeddedBroker struct {
	Host string `mapstructure:"host" yaml:"host"`
	Port int    `mapstructure:"port" yaml:"port"`
}

// LinkVerification configures the verifylinks stage and the broker it
// publishes broken-link events to. BrokerURL is an alias of broker.url
// (the specification's name for it); after loading it holds broker.url, or
// DefaultBrokerURL when no broker is configured. Connections are made by
// natsbroker.OptionsFor from the broker section.
type LinkVerification struct {
	Enabled            bool          `mapstructure:"enabled" yaml:"enabled"`
	BrokerURL          string        `mapstructure:"broker_url" yaml:"broker_url"` // alias: nats_url
	Subject            string        `mapstructure:"subject" yaml:"subject"`
	KVBucket           string        `mapstructure:"kv_bucket" yaml:"kv_bucket"`
	CacheTTL           time.Duration `mapstructure:"cache_ttl" yaml:"cache_ttl"`
	CacheTTLFailures   time.Duration `mapstructure:"cache_ttl_failures" yaml:"cache_ttl_failures"`
	MaxConcurrent      int           `mapstructure:"max_concurrent" yaml:"max_concurrent"`
	RequestTimeout     time.Duration `mapstructure:"request_timeout" yaml:"request_timeout"`
	RateLimitDelay     time.Duration `mapstructure:"rate_limit_delay" yaml:"rate_limit_delay"`
	VerifyExternalOnly bool          `mapstructure:"verify_external_only" yaml:"verify_external_only"`
	SkipEditLinks      bool          `mapstructure:"skip_edit_links" yaml:"skip_edit_links"`
	FollowRedirects    bool          `mapstructure:"follow_redirects" yaml:"follow_redirects"`
	MaxRedirects       int           `mapstructure:"max_redirects" yaml:"max_redirects"`
	// CheckFragments checks the #fragment of external links against the
	// ids of the page they lead to (read once per page and run).
	CheckFragments bool `mapstructure:"check_fragments" yaml:"check_fragments"`
}

// Sync is the daemon's periodic repository sync.
type Sync struct {
	Schedule string `mapstructure:"schedule" yaml:"schedule"` // cron, five fields
}

// Storage holds daemon storage paths.
type Storage struct {
	OutputDir    string `mapstructure:"output_dir" yaml:"output_dir"`
	RepoCacheDir string `mapstructure:"repo_cache_dir" yaml:"repo_cache_dir"`
}

// HTTP holds the addresses of the daemon's four servers.
type HTTP struct {
	// BindAddress is the host or IP every server listens on; empty means
	// every interface. A server's own *_bind_address overrides it.
	BindAddress           string `mapstructure:"bind_address" yaml:"bind_address"`
	DocsBindAddress       string `mapstructure:"docs_bind_address" yaml:"docs_bind_address"`
	WebhookBindAddress    string `mapstructure:"webhook_bind_address" yaml:"webhook_bind_address"`
	AdminBindAddress      string `mapstructure:"admin_bind_address" yaml:"admin_bind_address"`
	LiveReloadBindAddress string `mapstructure:"livereload_bind_address" yaml:"livereload_bind_address"`

	DocsPort       int `mapstructure:"docs_port" yaml:"docs_port"`
	WebhookPort    int `mapstructure:"webhook_port" yaml:"webhook_port"`
	AdminPort      int `mapstructure:"admin_port" yaml:"admin_port"`
	LiveReloadPort int `mapstructure:"livereload_port" yaml:"livereload_port"`
	// LiveReloadEnabled turns the optional live-reload server off when
	// false: its port is then not bound, and pages carry no reload client.
	LiveReloadEnabled bool `mapstructure:"livereload_enabled" yaml:"livereload_enabled"`
	// Limits bound each of the daemon's servers.
	Limits ServerLimits `mapstructure:"limits" yaml:"limits"`
	// LiveReloadLimits bound the live-reload server's event streams.
	LiveReloadLimits StreamLimits `mapstructure:"livereload_limits" yaml:"livereload_limits"`
}

// Versioning configures multi-version documentation from branches and tags.
type Versioning struct {
	Enabled            bool     `mapstructure:"enabled" yaml:"enabled"`
	Strategy           string   `mapstructure:"strategy" yaml:"strategy"` // branches_and_tags | branches_only | tags_only
	DefaultBranchOnly  bool     `mapstructure:"default_branch_only" yaml:"default_branch_only"`
	BranchPatterns     []string `mapstructure:"branch_patterns" yaml:"branch_patterns"`
	TagPatterns        []string `mapstructure:"tag_patterns" yaml:"tag_patterns"`
	MaxVersionsPerRepo int      `mapstructure:"max_versions_per_repo" yaml:"max_versions_per_repo"`
}

// Generator is the site metadata and theme parameters handed to Hugo
// (section alias: hugo).
type Generator struct {
	Title       string            `mapstructure:"title" yaml:"title"`
	Description string            `mapstructure:"description" yaml:"description"`
	BaseURL     string            `mapstructure:"base_url" yaml:"base_url"`
	Params      map[string]any    `mapstructure:"params" yaml:"params"`
	Taxonomies  map[string]string `mapstructure:"taxonomies" yaml:"taxonomies"`
}

// Output says where the site goes and whether the directory is cleaned first.
type Output struct {
	Directory string `mapstructure:"directory" yaml:"directory"`
	Clean     bool   `mapstructure:"clean" yaml:"clean"`
}

// Ingress configures `docweave ingress`, the ingress listing interface.
type Ingress struct {
	// BindAddress is the host or IP the ingress server listens on; empty
	// means every interface.
	BindAddress  string        `mapstructure:"bind_address" yaml:"bind_address"`
	Port         int           `mapstructure:"port" yaml:"port"`
	APIKeys      []string      `mapstructure:"api_keys" yaml:"api_keys"`
	APIKeysFile  string        `mapstructure:"api_keys_file" yaml:"api_keys_file"`
	CacheControl string        `mapstructure:"cache_control" yaml:"cache_control"`
	Source       IngressSource `mapstructure:"source" yaml:"source"`
	// Limits bound the ingress server.
	Limits ServerLimits `mapstructure:"limits" yaml:"limits"`
}

// IngressSource says where ingress objects come from.
type IngressSource struct {
	Type          string `mapstructure:"type" yaml:"type"` // file | kubernetes
	Path          string `mapstructure:"path" yaml:"path"`
	Kubeconfig    string `mapstructure:"kubeconfig" yaml:"kubeconfig"`
	Namespace     string `mapstructure:"namespace" yaml:"namespace"`
	LabelSelector string `mapstructure:"label_selector" yaml:"label_selector"`
}

// ShouldSkipIfUnchanged applies the spec's mode-dependent default: true in
// daemon mode, false in direct mode; direct builds never skip at all.
func (c *Config) ShouldSkipIfUnchanged() bool {
	if c.Mode == ModeDirect {
		return false
	}
	if c.Build.SkipIfUnchanged == nil {
		return true
	}
	return *c.Build.SkipIfUnchanged
}

// Repository returns the configured — or discovered — repository with the
// given name; stages receive names in messages and look the rest up in
// their own configuration.
func (c *Config) Repository(name string) (Repository, bool) {
	for _, r := range c.Repositories {
		if r.Name == name {
			return r, true
		}
	}
	return c.discoveredRepository(name)
}

// IsTrusted applies the default of repositories[].trusted: true.
func (r Repository) IsTrusted() bool {
	return r.Trusted == nil || *r.Trusted
}

// DocPaths returns the repository's documentation roots, defaulting to docs.
func (r Repository) DocPaths() []string {
	if len(r.Paths) == 0 {
		return []string{DefaultDocsPath}
	}
	return r.Paths
}
