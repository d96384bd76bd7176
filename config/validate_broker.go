package config

import (
	"net"
	"os"
	"strconv"
	"strings"
)

// validateBroker checks the site name and the broker section: the URL, the
// credentials (one kind at a time), the TLS files, and the embedded
// broker's listen address, which must be loopback unless credentials are
// configured.
func (c *Config) validateBroker(l *problemList) {
	if c.Site.Name != "" && !ValidSiteName(c.Site.Name) {
		l.add("site.name", "%q is not a valid site name; expected lower-case letters, digits and -, starting and ending with a letter or digit, at most %d characters",
			c.Site.Name, MaxSiteNameLength)
	}
	b := c.Broker
	urlKey := c.loadState.brokerURLKey
	if urlKey == "" {
		urlKey = "broker.url"
	}
	if b.External() {
		validateBrokerURL(l, urlKey, b.URL)
	}
	if (b.Username == "") != (b.Password == "") {
		l.add("broker.username", "and broker.password go together; set both or neither")
	}
	if b.Username != "" && b.External() && strings.Contains(b.URL, "@") {
		l.add("broker.username", "is set and %s carries credentials too; give them one way", urlKey)
	}
	if b.CredentialsFile != "" {
		switch {
		case b.Username != "":
			l.add("broker.credentials_file", "and broker.username are two ways to authenticate; set one")
		case !b.External():
			l.add("broker.credentials_file", "authenticates to an external broker; set broker.url (the embedded broker uses broker.username and broker.password)")
		default:
			checkReadableFile(l, "broker.credentials_file", b.CredentialsFile)
		}
	}
	c.validateBrokerTLS(l)
	c.validateEmbeddedListen(l, urlKey)
}

func (c *Config) validateBrokerTLS(l *problemList) {
	t := c.Broker.TLS
	if !t.Enabled() {
		return
	}
	if !c.Broker.External() {
		l.add("broker.tls", "applies to an external broker; set broker.url (the embedded broker does not serve TLS)")
		return
	}
	if (t.CertFile == "") != (t.KeyFile == "") {
		l.add("broker.tls.cert_file", "and broker.tls.key_file go together (a client certificate and its key); set both or neither")
	}
	checkReadableFile(l, "broker.tls.ca_file", t.CAFile)
	checkReadableFile(l, "broker.tls.cert_file", t.CertFile)
	checkReadableFile(l, "broker.tls.key_file", t.KeyFile)
}

func (c *Config) validateEmbeddedListen(l *problemList, urlKey string) {
	b := c.Broker
	// The older spelling was folded into broker.embedded.listen at load;
	// a value set in code after loading is still checked here.
	if p := c.Daemon.EmbeddedBroker.Port; p < 0 || p > 65535 {
		l.add("daemon.embedded_broker.port", "port %d is out of range; expected 0 (a free port) to 65535", p)
	}
	listen := b.Embedded.Listen
	if listen == "" {
		return
	}
	const key = "broker.embedded.listen"
	if b.External() {
		l.add(key, "is set and so is %s: the embedded broker runs only without an external one; set one of them", urlKey)
		return
	}
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		l.add(key, "%q is not host:port; expected for example 127.0.0.1:4222", listen)
		return
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		l.add(key, "%q has port %q; expected 0 (a free port) to 65535", listen, port)
		return
	}
	if !validHost(host) && host != "" {
		l.add(key, "%q has host %q; expected an IP address or a host name", listen, host)
		return
	}
	if !IsLoopbackHost(host) && !b.HasCredentials() {
		l.add(key, "%q is reachable from other machines, and the embedded broker then needs credentials you choose: set broker.username and broker.password (or listen on 127.0.0.1, where generated credentials are used)", listen)
	}
}

// validateBindAddresses checks the hosts the HTTP servers listen on.
func (c *Config) validateBindAddresses(l *problemList) {
	h := c.Daemon.HTTP
	for key, host := range map[string]string{
		"daemon.http.bind_address":            h.BindAddress,
		"daemon.http.docs_bind_address":       h.DocsBindAddress,
		"daemon.http.webhook_bind_address":    h.WebhookBindAddress,
		"daemon.http.admin_bind_address":      h.AdminBindAddress,
		"daemon.http.livereload_bind_address": h.LiveReloadBindAddress,
		"ingress.bind_address":                c.Ingress.BindAddress,
	} {
		if host != "" && !validHost(host) {
			l.add(key, "%q is not a host to listen on; expected an IP address (0.0.0.0 or :: for every interface, 127.0.0.1 for this machine only) or a host name, without a port", host)
		}
	}
}

// validHost accepts an IP address or a DNS host name (no port, no scheme).
func validHost(host string) bool {
	if net.ParseIP(strings.Trim(host, "[]")) != nil {
		return true
	}
	if len(host) > 253 {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			ch := label[i]
			if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-') {
				return false
			}
		}
	}
	return true
}

// checkReadableFile reports a configured file that cannot be read.
func checkReadableFile(l *problemList, key, path string) {
	if path == "" {
		return
	}
	f, err := os.Open(path)
	if err != nil {
		l.add(key, "cannot be read: %v", err)
		return
	}
	f.Close()
}
