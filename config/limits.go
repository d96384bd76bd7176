package config

import "time"

// InputLimits bound what one repository (one version of it, with
// versioning) may bring into a build (build.limits). Repositories are
// untrusted input: without these a single push could publish a 200 MB
// file or fill the disk with pages. A file over a limit is left out and
// reported; a repository over a limit is skipped and reported. The clone
// stage enforces them while it collects the documentation tree, so
// nothing over a limit is ever stored or rendered.
type InputLimits struct {
	// MaxFileBytes is the largest file published; larger files are left
	// out with FILE_TOO_LARGE.
	MaxFileBytes int `mapstructure:"max_file_bytes" yaml:"max_file_bytes"`
	// MaxPageBytes is the largest page (Markdown, HTML or another content
	// format Hugo renders) rendered; larger pages are left out with
	// PAGE_TOO_LARGE.
	MaxPageBytes int `mapstructure:"max_page_bytes" yaml:"max_page_bytes"`
	// MaxFiles is how many files one repository version may publish; a
	// repository with more is skipped with REPOSITORY_TOO_LARGE.
	MaxFiles int `mapstructure:"max_files" yaml:"max_files"`
	// MaxTotalBytes is how many bytes one repository version may publish
	// in all; a repository with more is skipped with REPOSITORY_TOO_LARGE.
	MaxTotalBytes int `mapstructure:"max_total_bytes" yaml:"max_total_bytes"`
}

// ServerLimits bound one HTTP server (daemon.http.limits applies to each
// of the daemon's servers, ingress.limits to the ingress server), so that
// no client, and no crowd of clients, can take the file handles, memory or
// goroutines the other servers and the builds need.
type ServerLimits struct {
	// MaxConnections is how many connections one server keeps open at
	// once; a connection beyond it is answered 503 and closed at once.
	MaxConnections int `mapstructure:"max_connections" yaml:"max_connections"`
	// MaxConnectionsPerClient is how many of them one client address may
	// hold.
	MaxConnectionsPerClient int `mapstructure:"max_connections_per_client" yaml:"max_connections_per_client"`
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout time.Duration `mapstructure:"read_header_timeout" yaml:"read_header_timeout"`
	// ReadTimeout bounds reading a whole request, body included; a
	// live-reload stream lifts it once its request is read.
	ReadTimeout time.Duration `mapstructure:"read_timeout" yaml:"read_timeout"`
	// IdleTimeout closes a keep-alive connection no request arrived on.
	IdleTimeout time.Duration `mapstructure:"idle_timeout" yaml:"idle_timeout"`
}

// StreamLimits bound the live-reload server's event streams
// (daemon.http.livereload_limits). A stream holds a connection for as long
// as a page is open, so streams are limited below the connection limit: a
// refused stream gets 503 with Retry-After and the browser tries again
// later, while /health and the other servers stay reachable.
type StreamLimits struct {
	// MaxStreams is how many /sse streams are open at once.
	MaxStreams int `mapstructure:"max_streams" yaml:"max_streams"`
	// MaxStreamsPerClient is how many of them one client address may hold.
	MaxStreamsPerClient int `mapstructure:"max_streams_per_client" yaml:"max_streams_per_client"`
}

// Ceilings of numeric settings. A value above one is refused by validation
// because it would exhaust memory, file handles or time before it could be
// useful (build.clone_concurrency: 2000000000 grew a build to 14 GB).
const (
	// MaxCloneConcurrency caps build.clone_concurrency.
	MaxCloneConcurrency = 256
	// MaxRetriesCeiling caps build.max_retries.
	MaxRetriesCeiling = 20
	// MaxRetryDelay caps build.retry_initial_delay and retry_max_delay.
	MaxRetryDelay = time.Hour
	// MaxShallowDepth caps build.shallow_depth (Git's own "infinite" depth).
	MaxShallowDepth = 1<<31 - 1
	// MaxAckWait caps build.ack_wait.
	MaxAckWait = time.Hour
	// MaxStageTimeout caps build.stage_timeout.
	MaxStageTimeout = time.Hour
	// MaxArtifactRetention caps build.artifact_retention: the broker's
	// object store removes every object after 7 days anyway.
	MaxArtifactRetention = 7 * 24 * time.Hour
	// MaxLinkConcurrency caps daemon.link_verification.max_concurrent.
	MaxLinkConcurrency = 1000
	// MaxRedirectsCeiling caps daemon.link_verification.max_redirects.
	MaxRedirectsCeiling = 20
	// MaxLinkRequestTimeout caps daemon.link_verification.request_timeout.
	MaxLinkRequestTimeout = 5 * time.Minute
	// MaxRateLimitDelay caps daemon.link_verification.rate_limit_delay.
	MaxRateLimitDelay = time.Minute
	// MaxCacheTTL caps the link cache lifetimes.
	MaxCacheTTL = 365 * 24 * time.Hour
	// MaxWebhookBodyBytes caps daemon.webhooks.max_body_bytes (a body is
	// read into memory).
	MaxWebhookBodyBytes = 100 << 20
	// MaxVersionsCeiling caps versioning.max_versions_per_repo.
	MaxVersionsCeiling = 1000
	// MaxNameLength caps repositories[].name (it becomes a path segment).
	MaxNameLength = 100

	// MaxFileBytesCeiling caps build.limits.max_file_bytes.
	MaxFileBytesCeiling = 16 << 30
	// MaxPageBytesCeiling caps build.limits.max_page_bytes: Hugo holds a
	// page and its rendering in memory.
	MaxPageBytesCeiling = 64 << 20
	// MaxFilesCeiling caps build.limits.max_files.
	MaxFilesCeiling = 1_000_000
	// MaxTotalBytesCeiling caps build.limits.max_total_bytes.
	MaxTotalBytesCeiling = 1 << 40

	// MaxConnectionsCeiling caps max_connections and the stream limits.
	MaxConnectionsCeiling = 1_000_000
	// MaxServerTimeout caps the servers' read and idle timeouts.
	MaxServerTimeout = time.Hour
)
