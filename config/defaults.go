package config

import "time"

// Default values that other code (and the docs reference) refers to by name.
const (
	// DefaultBrokerURL is the specification's default broker URL. It is
	// what daemon.link_verification.broker_url reads when no broker is
	// configured, and where `docweave links tail` looks by default; the
	// embedded broker listens nowhere unless broker.embedded.listen says so.
	DefaultBrokerURL = "nats://127.0.0.1:4222"
	// DefaultEmbeddedListen is where the embedded broker listens when only
	// part of the older daemon.embedded_broker address is written.
	DefaultEmbeddedListen = "127.0.0.1:4222"
	// DefaultOutputDirectory is output.directory when the file omits it.
	DefaultOutputDirectory = "./site"
	// DefaultDocsPath is the documentation root of a repository that lists
	// no paths.
	DefaultDocsPath = "docs"
	// DefaultSyncSchedule is daemon.sync.schedule when the file omits it.
	DefaultSyncSchedule = "*/5 * * * *"
	// DefaultGitHubAPI and DefaultGitLabURL are forges[].base_url for the
	// public services when the file omits it.
	DefaultGitHubAPI = "https://api.github.com"
	DefaultGitLabURL = "https://gitlab.com"
)

// Default returns the configuration a file with no keys at all produces,
// apart from path resolution. It is the single place where the defaults of
// the specification live, so the loader, the starter configuration test and
// the reference documentation cannot disagree.
//
// Two defaults are not plain values: build.skip_if_unchanged stays nil
// (see ShouldSkipIfUnchanged) and repositories[].paths is filled in per
// repository by the loader (DefaultDocsPath).
func Default() Config {
	return Config{
		discovered: &discoveredRepos{},
		Build: BuildSettings{
			CloneConcurrency:  4,
			RenderConcurrency: 2,
			CloneStrategy:     "fresh",
			ShallowDepth:      1,
			SparseCheckout:    true,
			MaxRetries:        2,
			RetryBackoff:      "linear",
			RetryInitialDelay: time.Second,
			RetryMaxDelay:     30 * time.Second,
			NamespaceForges:   "auto",
			BrokenLinks:       BrokenLinksWarn,
			ArtifactStore:     ArtifactStoreAuto,
			ArtifactRetention: time.Hour,
			StreamReplicas:    1,
			AckWait:           30 * time.Second,
			StageTimeout:      60 * time.Second,
			Limits:            DefaultInputLimits(),
		},
		Daemon: Daemon{
			LinkVerification: LinkVerification{
				Enabled:          true,
				BrokerURL:        DefaultBrokerURL,
				Subject:          "builder.links.broken",
				KVBucket:         "builder-link-cache",
				CacheTTL:         24 * time.Hour,
				CacheTTLFailures: time.Hour,
				MaxConcurrent:    10,
				RequestTimeout:   10 * time.Second,
				RateLimitDelay:   100 * time.Millisecond,
				SkipEditLinks:    true,
				FollowRedirects:  true,
				MaxRedirects:     3,
				CheckFragments:   false,
			},
			Sync:    Sync{Schedule: DefaultSyncSchedule},
			Storage: Storage{OutputDir: DefaultOutputDirectory},
			HTTP: HTTP{
				DocsPort:          8080,
				WebhookPort:       8081,
				AdminPort:         8082,
				LiveReloadPort:    8083,
				LiveReloadEnabled: true,
				Limits:            DefaultServerLimits(),
				LiveReloadLimits:  StreamLimits{MaxStreams: 1000, MaxStreamsPerClient: 32},
			},
			Webhooks: Webhooks{MaxBodyBytes: 5 << 20},
			Previews: Previews{TTL: DefaultPreviewTTL, Max: DefaultPreviewMax},
		},
		Versioning: Versioning{
			Strategy:           "branches_and_tags",
			BranchPatterns:     []string{"*"},
			TagPatterns:        []string{"*"},
			MaxVersionsPerRepo: 10,
		},
		Generator: Generator{
			Taxonomies: map[string]string{"tag": "tags", "category": "categories"},
		},
		Output: Output{Directory: DefaultOutputDirectory, Clean: true},
		Ingress: Ingress{
			Port:         8084,
			CacheControl: "no-store",
			Source:       IngressSource{Type: "file"},
			Limits:       DefaultServerLimits(),
		},
	}
}

// DefaultInputLimits are build.limits when the file omits them: room for
// large documentation sets (ten thousand files, a gigabyte) and images or
// PDFs up to 25 MiB, while a page over 2 MiB — far beyond any page written
// by hand — is not handed to Hugo.
func DefaultInputLimits() InputLimits {
	return InputLimits{
		MaxFileBytes:  25 << 20,
		MaxPageBytes:  2 << 20,
		MaxFiles:      10_000,
		MaxTotalBytes: 1 << 30,
	}
}

// DefaultServerLimits are daemon.http.limits and ingress.limits when the
// file omits them. The five servers together stay well below a typical
// 20,000 file handle limit (5 × 2,048), and one client address (a browser
// opens at most six connections per host; a reverse proxy pools a few
// dozen) cannot hold more than 256 of a server's connections.
func DefaultServerLimits() ServerLimits {
	return ServerLimits{
		MaxConnections:          2048,
		MaxConnectionsPerClient: 256,
		ReadHeaderTimeout:       10 * time.Second,
		ReadTimeout:             30 * time.Second,
		IdleTimeout:             2 * time.Minute,
	}
}
