package config

import "time"

// Previews is daemon.previews: pull-request previews, each the live site
// with one repository at another ref, served under /previews/<id>/ (see
// docs/previews.md). Off unless Enabled.
type Previews struct {
	// Enabled turns previews on: the admin API's /api/previews and the
	// webhook server's pull-request events. Off, both refuse.
	Enabled bool `mapstructure:"enabled" yaml:"enabled"`
	// TTL is how long a preview lives after it was last built.
	TTL time.Duration `mapstructure:"ttl" yaml:"ttl"`
	// Max bounds the previews kept at once; building one more removes
	// the oldest.
	Max int `mapstructure:"max" yaml:"max"`
	// Forks previews pull requests from forks, as untrusted content
	// (trusted: false); off, they are ignored.
	Forks bool `mapstructure:"forks" yaml:"forks"`
	// Report sets a commit status on the request's head commit with the
	// preview's URL and a summary, with the repository's token.
	Report bool `mapstructure:"report" yaml:"report"`
	// PublicURL is where readers reach the docs server (such as
	// https://docs.example.com); a preview's address in reports and API
	// answers starts with it. Empty: the address is a path.
	PublicURL string `mapstructure:"public_url" yaml:"public_url"`
}

// Defaults of daemon.previews, used by Default.
const (
	// DefaultPreviewTTL is daemon.previews.ttl when the file omits it.
	DefaultPreviewTTL = 7 * 24 * time.Hour
	// DefaultPreviewMax is daemon.previews.max when the file omits it.
	DefaultPreviewMax = 20
	// MaxPreviews caps daemon.previews.max: each preview holds a site's
	// directory entries on disk.
	MaxPreviews = 1000
	// MaxPreviewTTL caps daemon.previews.ttl at a year.
	MaxPreviewTTL = 365 * 24 * time.Hour
)

// validatePreviews checks daemon.previews.
func (c *Config) validatePreviews(l *problemList) {
	p := c.Daemon.Previews
	checkRange(l, "daemon.previews.max", p.Max, 1, MaxPreviews)
	if p.TTL < time.Minute || p.TTL > MaxPreviewTTL {
		l.add("daemon.previews.ttl", "%s is out of range; expected 1m to 8760h (a year)", p.TTL)
	}
	if p.PublicURL != "" {
		checkHTTPURL(l, "daemon.previews.public_url", p.PublicURL, "the docs server's address, such as https://docs.example.com")
	}
}
