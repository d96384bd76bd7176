package config

import (
	"testing"
	"time"
)

func TestPreviewDefaults(t *testing.T) {
	p := Default().Daemon.Previews
	if p.Enabled || p.Forks || p.Report || p.TTL != 7*24*time.Hour || p.Max != 20 {
		t.Fatalf("daemon.previews defaults = %+v; want off, ttl 168h, max 20, forks and report off", p)
	}
}

func TestPreviewRules(t *testing.T) {
	pv := func(c *Config) *Previews { return &c.Daemon.Previews }
	runRuleCases(t, []ruleCase{
		{"max at least 1", ModeDaemon, func(c *Config) { pv(c).Max = 0 },
			"daemon.previews.max", []string{"0 is out of range; expected 1 to 1,000"}},
		{"ttl at least a minute", ModeDaemon, func(c *Config) { pv(c).TTL = time.Second },
			"daemon.previews.ttl", []string{"1s is out of range; expected 1m to 8760h"}},
		{"public_url http(s)", ModeDaemon, func(c *Config) { pv(c).PublicURL = "docs.example.com" },
			"daemon.previews.public_url", []string{"is not an http(s) URL"}},
	})
}
