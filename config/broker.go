package config

import (
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/url"
	"strings"
)

// Site names the site a configuration builds. Several sites may share one
// NATS server or cluster: every stream, consumer, bucket, object store and
// subject docweave uses there is scoped by the name, so sites never see
// each other's messages or state.
type Site struct {
	// Name is the site's name on the broker: lower-case letters, digits
	// and '-', at most MaxSiteNameLength characters. Empty in the file
	// means derived from the configuration (see DeriveSiteName).
	Name string `mapstructure:"name" yaml:"name"`
}

// MaxSiteNameLength bounds site.name, so that the names derived from it
// (streams, buckets) stay well inside NATS's limits.
const MaxSiteNameLength = 40

// Broker is where docweave's stages meet: an external NATS server or
// cluster (URL), or a NATS server embedded in the process. The embedded
// one accepts no network client unless Embedded.Listen is set, and then
// only with credentials.
type Broker struct {
	// URL is an external broker: one URL or a comma-separated cluster list,
	// nats:// or tls://, credentials allowed as user:password@host. Empty
	// embeds a server. Aliases: daemon.link_verification.broker_url and
	// nats_url, the names the specification uses.
	URL string `mapstructure:"url" yaml:"url"`
	// Username and Password authenticate to the external broker, and are
	// required of every client by the embedded broker when it listens.
	Username string `mapstructure:"username" yaml:"username"`
	Password string `mapstructure:"password" yaml:"password"`
	// CredentialsFile is a NATS credentials file (a user JWT and its NKey
	// seed), for an external broker run in operator mode.
	CredentialsFile string `mapstructure:"credentials_file" yaml:"credentials_file"`
	// TLS configures the connection to an external broker.
	TLS BrokerTLS `mapstructure:"tls" yaml:"tls"`
	// Embedded configures the server docweave embeds when URL is empty.
	Embedded BrokerEmbedded `mapstructure:"embedded" yaml:"embedded"`
}

// BrokerTLS holds the files of a TLS connection to an external broker.
type BrokerTLS struct {
	// CAFile verifies the broker's certificate (default: the system roots).
	CAFile string `mapstructure:"ca_file" yaml:"ca_file"`
	// CertFile and KeyFile are a client certificate, for brokers that
	// require one (mutual TLS).
	CertFile string `mapstructure:"cert_file" yaml:"cert_file"`
	KeyFile  string `mapstructure:"key_file" yaml:"key_file"`
}

// Enabled reports whether any TLS file is configured, which turns TLS on
// even for nats:// URLs.
func (t BrokerTLS) Enabled() bool {
	return t.CAFile != "" || t.CertFile != "" || t.KeyFile != ""
}

// BrokerEmbedded configures the embedded NATS server.
type BrokerEmbedded struct {
	// Listen is host:port where the embedded server accepts other
	// processes (docweave stage, serve, links tail, subscribers). Empty:
	// it accepts none, and the daemon connects to it in-process. Port 0
	// picks a free port.
	Listen string `mapstructure:"listen" yaml:"listen"`
}

// External reports whether the configuration names an external broker.
func (b Broker) External() bool { return strings.TrimSpace(b.URL) != "" }

// HasCredentials reports whether user name and password are configured.
func (b Broker) HasCredentials() bool { return b.Username != "" && b.Password != "" }

// SiteName is the configured site.name, or the name derived from the
// configuration when it is empty (a Config built in code).
func (c *Config) SiteName() string {
	if c.Site.Name != "" {
		return c.Site.Name
	}
	return DeriveSiteName(c)
}

// DeriveSiteName is the default of site.name: the host and path of
// generator.base_url (docs.example.com/handbook becomes
// docs-example-com-handbook), else the title, else "docweave". Two sites
// that would get the same name find out at start-up: a daemon refuses to
// share its name with a process of another configuration.
func DeriveSiteName(c *Config) string {
	if base := strings.TrimSpace(c.Generator.BaseURL); base != "" {
		if u, err := url.Parse(base); err == nil {
			if s := SiteSlug(u.Host + "/" + u.Path); s != "" {
				return s
			}
		}
	}
	if s := SiteSlug(c.Generator.Title); s != "" {
		return s
	}
	return "docweave"
}

// SiteSlug turns text into a valid site name: lower case, runs of other
// characters replaced by one '-', trimmed, and shortened with a hash of
// the whole when longer than MaxSiteNameLength. It returns "" for text
// without letters or digits.
func SiteSlug(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	s := b.String()
	if len(s) <= MaxSiteNameLength {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	head := strings.TrimRight(s[:MaxSiteNameLength-9], "-")
	return head + "-" + hex.EncodeToString(sum[:4])
}

// ValidSiteName reports whether name can scope broker resources: lower-case
// letters, digits and '-', starting and ending with a letter or digit.
func ValidSiteName(name string) bool {
	if name == "" || len(name) > MaxSiteNameLength || name[0] == '-' || name[len(name)-1] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// IsLoopbackHost reports whether host names this machine only: localhost
// or a loopback IP address. An empty host (every interface) is not.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// The values of build.artifact_store.
const (
	ArtifactStoreAuto   = "auto"
	ArtifactStoreLocal  = "local"
	ArtifactStoreBroker = "broker"
)

// ArtifactStoreFor resolves build.artifact_store for a process: "local" or
// "broker" as written, and "auto" as the broker's object store whenever
// other processes can reach this process's broker (an external broker, or
// the embedded one listening), because a stage or server there may need
// what this process stores; as the local workspace when the broker is
// in-process only, where no other process can take part.
func (b BuildSettings) ArtifactStoreFor(sharedBroker bool) string {
	if b.ArtifactStore != ArtifactStoreAuto {
		return b.ArtifactStore
	}
	if sharedBroker {
		return ArtifactStoreBroker
	}
	return ArtifactStoreLocal
}

// Server names of the daemon's four HTTP servers, as `docweave serve
// --servers` takes them.
const (
	ServerDocs       = "docs"
	ServerWebhook    = "webhook"
	ServerAdmin      = "admin"
	ServerLiveReload = "livereload"
)

// BindHost is the host the named server listens on: its own
// *_bind_address, else daemon.http.bind_address ("" is every interface).
func (h HTTP) BindHost(server string) string {
	own := map[string]string{
		ServerDocs: h.DocsBindAddress, ServerWebhook: h.WebhookBindAddress,
		ServerAdmin: h.AdminBindAddress, ServerLiveReload: h.LiveReloadBindAddress,
	}[server]
	if own != "" {
		return own
	}
	return h.BindAddress
}
