package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDaemonRules(t *testing.T) {
	lv := func(c *Config) *LinkVerification { return &c.Daemon.LinkVerification }
	runRuleCases(t, []ruleCase{
		{"max_concurrent at least 1", ModeDaemon, func(c *Config) { lv(c).MaxConcurrent = 0 },
			"daemon.link_verification.max_concurrent", []string{"0 is out of range; expected 1 to"}},
		{"max_redirects not negative", ModeDaemon, func(c *Config) { lv(c).MaxRedirects = -1 },
			"daemon.link_verification.max_redirects", []string{"is out of range; expected 0 to 20"}},
		{"negative cache_ttl", ModeDaemon, func(c *Config) { lv(c).CacheTTL = -time.Hour },
			"daemon.link_verification.cache_ttl", []string{"is out of range; expected a duration from 0s"}},
		{"negative cache_ttl_failures", ModeDaemon, func(c *Config) { lv(c).CacheTTLFailures = -time.Hour },
			"daemon.link_verification.cache_ttl_failures", []string{"is out of range; expected a duration from 0s"}},
		{"negative rate_limit_delay", ModeDaemon, func(c *Config) { lv(c).RateLimitDelay = -time.Millisecond },
			"daemon.link_verification.rate_limit_delay", []string{"is out of range; expected a duration from 0s"}},
		{"zero request_timeout", ModeDaemon, func(c *Config) { lv(c).RequestTimeout = 0 },
			"daemon.link_verification.request_timeout", []string{"0s is out of range; expected a duration from 1ms"}},
		{"bad kv bucket", ModeDaemon, func(c *Config) { lv(c).KVBucket = "link cache" },
			"daemon.link_verification.kv_bucket", []string{"not a valid bucket name"}},
		{"empty subject", ModeDaemon, func(c *Config) { lv(c).Subject = "" },
			"daemon.link_verification.subject", []string{"is empty"}},
		{"wildcard subject", ModeDaemon, func(c *Config) { lv(c).Subject = "builder.*" },
			"daemon.link_verification.subject", []string{"not a valid publish subject"}},
		{"subject with empty token", ModeDaemon, func(c *Config) { lv(c).Subject = "builder..links" },
			"daemon.link_verification.subject", []string{"not a valid publish subject"}},
		{"broker scheme", ModeDirect, func(c *Config) { c.Broker.URL = "http://broker:4222" },
			"broker.url", []string{`entry 1 (http://broker:4222) has scheme "http"`, "nats, tls, ws or wss"}},
		{"broker without scheme", ModeDaemon, func(c *Config) { c.Broker.URL = "broker:4222" },
			"broker.url", []string{"entry 1 (broker:4222) has no scheme"}},
		{"broker second entry", ModeDaemon, func(c *Config) { c.Broker.URL = "nats://a:4222, ftp://b:4222" },
			"broker.url", []string{`entry 2 (ftp://b:4222) has scheme "ftp"`}},
		{"broker empty entry", ModeDaemon, func(c *Config) { c.Broker.URL = "nats://a:4222,," },
			"broker.url", []string{"entry 2 is empty"}},
		{"broker without host", ModeDaemon, func(c *Config) { c.Broker.URL = "nats://:4222" },
			"broker.url", []string{"has no host"}},
		{"broker unparsable", ModeDaemon, func(c *Config) { c.Broker.URL = "nats://h:port" },
			"broker.url", []string{"entry 1 (nats://h:port) is not a valid URL"}},
		{"schedule with four fields", ModeDaemon, func(c *Config) { c.Daemon.Sync.Schedule = "*/5 * * *" },
			"daemon.sync.schedule", []string{`"*/5 * * *" has 4 fields; expected five fields`}},
		{"schedule with six fields", ModeDaemon, func(c *Config) { c.Daemon.Sync.Schedule = "0 */5 * * * *" },
			"daemon.sync.schedule", []string{"has 6 fields"}},
		{"schedule descriptor", ModeDaemon, func(c *Config) { c.Daemon.Sync.Schedule = "@hourly" },
			"daemon.sync.schedule", []string{"has 1 field;"}},
		{"schedule that does not parse", ModeDaemon, func(c *Config) { c.Daemon.Sync.Schedule = "61 * * * *" },
			"daemon.sync.schedule", []string{`"61 * * * *" does not parse`}},
		{"port zero", ModeDaemon, func(c *Config) { c.Daemon.HTTP.DocsPort = 0 },
			"daemon.http.docs_port", []string{"port 0 is out of range; expected 1-65535"}},
		{"port too high", ModeDaemon, func(c *Config) { c.Daemon.HTTP.LiveReloadPort = 70000 },
			"daemon.http.livereload_port", []string{"port 70000 is out of range"}},
		{"admin shares docs port", ModeDaemon, func(c *Config) { c.Daemon.HTTP.AdminPort = 8080 },
			"daemon.http.admin_port", []string{"port 8080 is also the docs server's port (daemon.http.docs_port)"}},
		{"livereload shares webhook port", ModeDirect, func(c *Config) { c.Daemon.HTTP.LiveReloadPort = 8081 },
			"daemon.http.livereload_port", []string{"port 8081 is also the webhook server's port (daemon.http.webhook_port)", "livereload server"}},
		{"output_dir differs in daemon mode", ModeDaemon, func(c *Config) { c.Daemon.Storage.OutputDir = "/srv/other" },
			"daemon.storage.output_dir", []string{`"/srv/other" differs from output.directory`, "must be the same directory"}},
	})
}

func TestBrokerProblemNeverShowsPassword(t *testing.T) {
	c := validConfig(t, ModeDaemon)
	c.Broker.URL = "nats://user:pa55word@a:4222,http://user:pa55word@b:4222,user:pa55word@c:4222,nats://u:pa55word@h:bad"
	err := c.Validate()
	problemsOf(t, err)
	if strings.Contains(err.Error(), "pa55word") {
		t.Fatalf("password echoed: %v", err)
	}
	requireProblem(t, err, "broker.url", "entry 2 (http://***@b:4222)")
}

func TestBrokerAcceptsClustersAndCredentials(t *testing.T) {
	c := validConfig(t, ModeDaemon)
	c.Broker.URL = "nats://u:p@a:4222, tls://b:4222,ws://c:80,wss://d:443"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestOutputDirRuleDependsOnMode(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Daemon.Storage.OutputDir = "/srv/other"
	if err := c.Validate(); err != nil {
		t.Fatalf("direct mode must not compare daemon.storage.output_dir: %v", err)
	}
	c = validConfig(t, ModeDaemon)
	c.Daemon.Storage.OutputDir = c.Output.Directory + string(filepath.Separator) + "." + string(filepath.Separator)
	if err := c.Validate(); err != nil {
		t.Fatalf("equal after normalization must pass: %v", err)
	}
}

func TestOutputDirRuleFromYAML(t *testing.T) {
	text := oneRepo + "output:\n  directory: ./site\ndaemon:\n  storage:\n    output_dir: ./public\n"
	_, err := loadText(t, text, ModeDaemon)
	requireProblem(t, err, "daemon.storage.output_dir", "differs from output.directory")
	if _, err := loadText(t, text, ModeDirect); err != nil {
		t.Fatalf("direct mode: %v", err)
	}
	c := mustLoad(t, oneRepo+"output:\n  directory: out\ndaemon:\n  storage:\n    output_dir: ./out/\n", ModeDaemon)
	if c.Daemon.Storage.OutputDir != c.Output.Directory {
		t.Fatalf("storage %q != output %q", c.Daemon.Storage.OutputDir, c.Output.Directory)
	}
}

func TestValidSchedules(t *testing.T) {
	for _, s := range []string{"*/5 * * * *", "0 3 * * 1-5", "15,45 * * * *", "0 0 1 jan *"} {
		c := validConfig(t, ModeDaemon)
		c.Daemon.Sync.Schedule = s
		if err := c.Validate(); err != nil {
			t.Errorf("schedule %q: %v", s, err)
		}
	}
}

func TestDaemonServerSettingsValidated(t *testing.T) {
	c := Default()
	c.Repositories = []Repository{{Name: "a", URL: "file:///a"}}
	c.Daemon.Webhooks.MaxBodyBytes = 0
	c.Broker.Embedded.Listen = "127.0.0.1:70000"
	err := c.Validate()
	if err == nil {
		t.Fatal("invalid daemon settings accepted")
	}
	for _, key := range []string{"daemon.webhooks.max_body_bytes", "broker.embedded.listen"} {
		if !strings.Contains(err.Error(), key) {
			t.Errorf("error does not name %s:\n%v", key, err)
		}
	}
}

func TestBrokenLinkSubjectOutsideThePipeline(t *testing.T) {
	c := Default()
	c.Repositories = []Repository{{Name: "a", URL: "file:///a"}}
	c.Daemon.LinkVerification.Subject = "docweave.links.broken"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "daemon.link_verification.subject") {
		t.Fatalf("subject under docweave.> accepted: %v", err)
	}
}
