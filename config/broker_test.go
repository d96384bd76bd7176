package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDeriveSiteName(t *testing.T) {
	cases := []struct{ base, title, want string }{
		{"https://docs.example.com/", "Ignored", "docs-example-com"},
		{"https://docs.example.com/handbook/", "", "docs-example-com-handbook"},
		{"http://localhost:8080/", "", "localhost-8080"},
		{"/handbook/", "", "handbook"},
		{"", "Platform Docs", "platform-docs"},
		{"/", "Ünïcode — Docs!", "n-code-docs"},
		{"", "", "docweave"},
		{"", "!!!", "docweave"},
	}
	for _, tc := range cases {
		c := Default()
		c.Generator.BaseURL, c.Generator.Title = tc.base, tc.title
		if got := DeriveSiteName(&c); got != tc.want {
			t.Errorf("base %q title %q: %q, want %q", tc.base, tc.title, got, tc.want)
		}
		if !ValidSiteName(DeriveSiteName(&c)) {
			t.Errorf("derived name %q is not valid", DeriveSiteName(&c))
		}
	}
	long := SiteSlug(strings.Repeat("documentation ", 10))
	if len(long) > MaxSiteNameLength || !ValidSiteName(long) {
		t.Fatalf("long slug %q (%d) is not a valid name", long, len(long))
	}
	if other := SiteSlug(strings.Repeat("documentation ", 11)); other == long {
		t.Fatalf("two long titles shortened to the same name %q", long)
	}
}

func TestSiteNameFromFile(t *testing.T) {
	c := mustLoad(t, oneRepo+"generator:\n  base_url: https://docs.example.com/\n", ModeDaemon)
	if c.Site.Name != "docs-example-com" || c.SiteName() != "docs-example-com" {
		t.Fatalf("derived site name %q", c.Site.Name)
	}
	c = mustLoad(t, oneRepo+"site:\n  name: handbook\ngenerator:\n  base_url: https://docs.example.com/\n", ModeDaemon)
	if c.Site.Name != "handbook" {
		t.Fatalf("site.name %q", c.Site.Name)
	}
	_, err := loadText(t, oneRepo+"site:\n  name: Hand_Book\n", ModeDaemon)
	requireProblem(t, err, "site.name", `"Hand_Book" is not a valid site name`)
}

func TestBrokerRules(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.pem")
	runRuleCases(t, []ruleCase{
		{"username without password", ModeDaemon, func(c *Config) { c.Broker.Username = "u" },
			"broker.username", []string{"go together"}},
		{"credentials twice", ModeDaemon, func(c *Config) {
			c.Broker.URL, c.Broker.Username, c.Broker.Password = "nats://a:b@h:4222", "u", "p"
		}, "broker.username", []string{"carries credentials too"}},
		{"credentials file without url", ModeDaemon, func(c *Config) { c.Broker.CredentialsFile = missing },
			"broker.credentials_file", []string{"set broker.url"}},
		{"credentials file unreadable", ModeDaemon, func(c *Config) {
			c.Broker.URL, c.Broker.CredentialsFile = "nats://h:4222", missing
		}, "broker.credentials_file", []string{"cannot be read"}},
		{"tls for the embedded broker", ModeDaemon, func(c *Config) { c.Broker.TLS.CAFile = missing },
			"broker.tls", []string{"applies to an external broker"}},
		{"client cert without key", ModeDaemon, func(c *Config) {
			c.Broker.URL, c.Broker.TLS.CertFile = "tls://h:4222", missing
		}, "broker.tls.cert_file", []string{"go together"}},
		{"listen and url", ModeDaemon, func(c *Config) {
			c.Broker.URL, c.Broker.Embedded.Listen = "nats://h:4222", "127.0.0.1:4222"
		}, "broker.embedded.listen", []string{"embedded broker runs only without an external one"}},
		{"listen without port", ModeDaemon, func(c *Config) { c.Broker.Embedded.Listen = "127.0.0.1" },
			"broker.embedded.listen", []string{"not host:port"}},
		{"listen on every interface without credentials", ModeDaemon, func(c *Config) { c.Broker.Embedded.Listen = ":4222" },
			"broker.embedded.listen", []string{"reachable from other machines", "broker.username"}},
		{"listen on a LAN address without credentials", ModeDaemon, func(c *Config) { c.Broker.Embedded.Listen = "10.1.2.3:4222" },
			"broker.embedded.listen", []string{"reachable from other machines"}},
		{"bind address with a port", ModeDaemon, func(c *Config) { c.Daemon.HTTP.AdminBindAddress = "127.0.0.1:8082" },
			"daemon.http.admin_bind_address", []string{"not a host to listen on"}},
		{"ingress bind address", ModeIngress, func(c *Config) { c.Ingress.BindAddress = "http://x" },
			"ingress.bind_address", []string{"not a host to listen on"}},
		{"artifact store", ModeDaemon, func(c *Config) { c.Build.ArtifactStore = "disk" },
			"build.artifact_store", []string{"auto, local, broker"}},
		{"artifact retention past the store's own limit", ModeDaemon, func(c *Config) { c.Build.ArtifactRetention = 8 * 24 * time.Hour },
			"build.artifact_retention", []string{"192h0m0s is out of range", "0s to 168h0m0s"}},
		{"negative artifact retention", ModeDaemon, func(c *Config) { c.Build.ArtifactRetention = -time.Minute },
			"build.artifact_retention", []string{"out of range"}},
	})
}

func TestBrokerAcceptsListenAddresses(t *testing.T) {
	for _, tc := range []struct {
		listen, user, pass string
	}{
		{"127.0.0.1:4222", "", ""},
		{"localhost:0", "", ""},
		{"[::1]:4222", "", ""},
		{"0.0.0.0:4222", "docweave", "s3cret"},
	} {
		c := validConfig(t, ModeDaemon)
		c.Broker.Embedded.Listen, c.Broker.Username, c.Broker.Password = tc.listen, tc.user, tc.pass
		if err := c.Validate(); err != nil {
			t.Errorf("listen %s: %v", tc.listen, err)
		}
	}
	c := validConfig(t, ModeDaemon)
	c.Daemon.HTTP.BindAddress, c.Daemon.HTTP.AdminBindAddress = "0.0.0.0", "127.0.0.1"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Daemon.HTTP.BindHost(ServerAdmin) != "127.0.0.1" || c.Daemon.HTTP.BindHost(ServerDocs) != "0.0.0.0" {
		t.Fatalf("bind hosts admin %q docs %q", c.Daemon.HTTP.BindHost(ServerAdmin), c.Daemon.HTTP.BindHost(ServerDocs))
	}
}

func TestBrokerAliasesFromFile(t *testing.T) {
	c := mustLoad(t, oneRepo+"daemon:\n  embedded_broker:\n    port: 0\n", ModeDaemon)
	if c.Broker.Embedded.Listen != "127.0.0.1:0" {
		t.Fatalf("embedded_broker.port: listen %q", c.Broker.Embedded.Listen)
	}
	c = mustLoad(t, oneRepo+"daemon:\n  embedded_broker:\n    host: localhost\n", ModeDaemon)
	if c.Broker.Embedded.Listen != "localhost:4222" {
		t.Fatalf("embedded_broker.host: listen %q", c.Broker.Embedded.Listen)
	}
	_, err := loadText(t, oneRepo+"broker:\n  url: nats://a:4222\ndaemon:\n  link_verification:\n    nats_url: nats://b:4222\n", ModeDaemon)
	requireProblem(t, err, "daemon.link_verification.broker_url", "another name for broker.url")
	_, err = loadText(t, oneRepo+"daemon:\n  link_verification:\n    broker_url: ftp://b:4222\n", ModeDaemon)
	requireProblem(t, err, "daemon.link_verification.broker_url", `has scheme "ftp"`)
	_, err = loadText(t, oneRepo+"broker:\n  embedded:\n    listen: 127.0.0.1:4223\ndaemon:\n  embedded_broker:\n    port: 4222\n", ModeDaemon)
	requireProblem(t, err, "daemon.embedded_broker", "older spelling of broker.embedded.listen")
}

func TestArtifactStoreFor(t *testing.T) {
	for _, tc := range []struct {
		set    string
		shared bool
		want   string
	}{
		{"auto", false, "local"}, {"auto", true, "broker"},
		{"local", true, "local"}, {"broker", false, "broker"},
	} {
		if got := (BuildSettings{ArtifactStore: tc.set}).ArtifactStoreFor(tc.shared); got != tc.want {
			t.Errorf("%s shared=%v: %s, want %s", tc.set, tc.shared, got, tc.want)
		}
	}
}
