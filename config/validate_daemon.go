package config

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/docweave/docweave/internal/words"
)

// validateDaemon checks the daemon sections: link verification and its
// broker, the sync schedule, the four ports and, in daemon mode, that the
// storage output directory is output.directory.
func (c *Config) validateDaemon(l *problemList) {
	c.validateLinkVerification(l)
	validateSchedule(l, "daemon.sync.schedule", c.Daemon.Sync.Schedule)
	c.validatePorts(l)
	c.validatePreviews(l)
	checkRange(l, "daemon.webhooks.max_body_bytes", c.Daemon.Webhooks.MaxBodyBytes, 1, MaxWebhookBodyBytes)
	if !IsToken68(c.Daemon.Admin.Token) && c.Daemon.Admin.Token != "" {
		l.add("daemon.admin.token", "%s; it is sent after \"Bearer \"", token68Expected)
	}
	if c.Mode == ModeDaemon {
		out, storage := normalizeDir(c.Output.Directory), normalizeDir(c.Daemon.Storage.OutputDir)
		if out != storage {
			l.add("daemon.storage.output_dir", "%q differs from output.directory %q; in daemon mode they must be the same directory (omit daemon.storage.output_dir to use output.directory)",
				c.Daemon.Storage.OutputDir, c.Output.Directory)
		}
	}
}

// normalizeDir makes a directory comparable: absolute (against the working
// directory when relative) and clean.
func normalizeDir(dir string) string {
	if dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
}

var kvBucketName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func (c *Config) validateLinkVerification(l *problemList) {
	const p = "daemon.link_verification."
	lv := c.Daemon.LinkVerification
	checkRange(l, p+"max_concurrent", lv.MaxConcurrent, 1, MaxLinkConcurrency)
	checkRange(l, p+"max_redirects", lv.MaxRedirects, 0, MaxRedirectsCeiling)
	checkDurationRange(l, p+"cache_ttl", lv.CacheTTL, 0, MaxCacheTTL)
	checkDurationRange(l, p+"cache_ttl_failures", lv.CacheTTLFailures, 0, MaxCacheTTL)
	checkDurationRange(l, p+"rate_limit_delay", lv.RateLimitDelay, 0, MaxRateLimitDelay)
	checkDurationRange(l, p+"request_timeout", lv.RequestTimeout, time.Millisecond, MaxLinkRequestTimeout)
	if !kvBucketName.MatchString(lv.KVBucket) {
		l.add(p+"kv_bucket", "%q is not a valid bucket name; expected letters, digits, - and _", lv.KVBucket)
	}
	validateSubject(l, p+"subject", lv.Subject)
	// The pipeline stream owns docweave.> (events.Prefix); JetStream allows
	// no second stream on those subjects.
	if lv.Subject == "docweave" || strings.HasPrefix(lv.Subject, "docweave.") {
		l.add(p+"subject", "%q lies under docweave.>, which docweave's pipeline stream owns; expected another subject, such as builder.links.broken", lv.Subject)
	}
}

// validateSubject checks a subject events are published on: dot-separated
// non-empty tokens without spaces or wildcards.
func validateSubject(l *problemList, key, subject string) {
	const expected = "expected dot-separated tokens without spaces or wildcards, such as builder.links.broken"
	if subject == "" {
		l.add(key, "is empty; %s", expected)
		return
	}
	for _, token := range strings.Split(subject, ".") {
		if token == "" || token == "*" || token == ">" || strings.ContainsAny(token, " \t\r\n") {
			l.add(key, "%q is not a valid publish subject; %s", subject, expected)
			return
		}
	}
}

// brokerSchemes are the URL schemes a broker address may use.
var brokerSchemes = []string{"nats", "tls", "ws", "wss"}

// validateBrokerURL checks each comma-separated broker URL. Messages show
// entries with their user info replaced, so a password is never echoed.
func validateBrokerURL(l *problemList, key, list string) {
	const expected = "expected URLs like nats://host:4222 with scheme nats, tls, ws or wss"
	for i, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		n := i + 1
		if entry == "" {
			l.add(key, "entry %d is empty; %s, separated by commas", n, expected)
			continue
		}
		shown := redactUserInfo(entry)
		if !strings.Contains(entry, "://") {
			l.add(key, "entry %d (%s) has no scheme; %s", n, shown, expected)
			continue
		}
		u, err := url.Parse(entry)
		if err != nil {
			l.add(key, "entry %d (%s) is not a valid URL; %s", n, shown, expected)
			continue
		}
		if !containsFold(brokerSchemes, u.Scheme) {
			l.add(key, "entry %d (%s) has scheme %q; %s", n, shown, u.Scheme, expected)
			continue
		}
		if u.Hostname() == "" {
			l.add(key, "entry %d (%s) has no host; %s", n, shown, expected)
		}
	}
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// validateSchedule checks a five-field cron expression with robfig/cron's
// standard parser; descriptors such as @hourly are not accepted.
func validateSchedule(l *problemList, key, schedule string) {
	const expected = "expected five fields (minute hour day-of-month month day-of-week) such as */5 * * * *"
	if n := len(strings.Fields(schedule)); n != 5 {
		l.add(key, "%q has %s; %s", schedule, words.Plural(n, "field"), expected)
		return
	}
	if _, err := cron.ParseStandard(schedule); err != nil {
		l.add(key, "%q does not parse (%v); %s", schedule, err, expected)
	}
}

// validatePorts checks the four daemon ports: each in range and no two
// servers sharing one.
func (c *Config) validatePorts(l *problemList) {
	h := c.Daemon.HTTP
	servers := []struct {
		name, key string
		port      int
	}{
		{"docs", "daemon.http.docs_port", h.DocsPort},
		{"webhook", "daemon.http.webhook_port", h.WebhookPort},
		{"admin", "daemon.http.admin_port", h.AdminPort},
		{"livereload", "daemon.http.livereload_port", h.LiveReloadPort},
	}
	if !h.LiveReloadEnabled {
		servers = servers[:3] // the live-reload port is not bound
	}
	for i, s := range servers {
		if !checkPort(l, s.key, s.port) {
			continue
		}
		for _, earlier := range servers[:i] {
			if earlier.port == s.port {
				l.add(s.key, "port %d is also the %s server's port (%s); expected a port of its own for the %s server",
					s.port, earlier.name, earlier.key, s.name)
				break
			}
		}
	}
}
