package config

import (
	"strings"

	"github.com/rs/zerolog"
)

// MarshalZerologObject writes a secret-free summary of the configuration
// into a structured log line: log.Info().Object("config", cfg).Msg(...).
func (c *Config) MarshalZerologObject(e *zerolog.Event) {
	e.Str("path", c.Path).
		Str("mode", c.Mode.String()).
		Int("repositories", len(c.Repositories)).
		Int("forges", len(c.Forges)).
		Str("output_directory", c.Output.Directory).
		Str("site", c.SiteName()).
		Bool("broker_url_set", c.Broker.External()).
		Str("broker_url", c.Broker.RedactedURL()).
		Str("broker_listen", c.Broker.Embedded.Listen).
		Strs("env_files", c.loadState.envFiles)
}

// MarshalZerologObject writes a repository into a structured log line with
// its URL redacted and without credentials.
func (r Repository) MarshalZerologObject(e *zerolog.Event) {
	e.Str("name", r.Name).
		Str("url", r.RedactedURL()).
		Str("branch", r.Branch).
		Strs("paths", r.Paths).
		Str("auth", r.Auth.String())
}

// RedactedURL returns broker.url with the user info of every
// comma-separated URL replaced by "***", for logs and errors.
func (b Broker) RedactedURL() string {
	return LinkVerification{BrokerURL: b.URL}.RedactedBrokerURL()
}

// RedactedBrokerURL returns broker_url with the user info of every
// comma-separated URL replaced by "***", for logs and errors.
func (lv LinkVerification) RedactedBrokerURL() string {
	parts := strings.Split(lv.BrokerURL, ",")
	for i, p := range parts {
		parts[i] = redactUserInfo(strings.TrimSpace(p))
	}
	return strings.Join(parts, ",")
}
