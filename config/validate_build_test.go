package config

import (
	"testing"
	"time"
)

func TestBuildRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"clone_strategy enum", ModeDirect, func(c *Config) { c.Build.CloneStrategy = "clone" },
			"build.clone_strategy", []string{`"clone" is not allowed; expected one of fresh, update, auto`}},
		{"retry_backoff enum", ModeDirect, func(c *Config) { c.Build.RetryBackoff = "random" },
			"build.retry_backoff", []string{"expected one of fixed, linear, exponential"}},
		{"namespace_forges enum", ModeDirect, func(c *Config) { c.Build.NamespaceForges = "yes" },
			"build.namespace_forges", []string{"expected one of auto, always, never"}},
		{"clone_concurrency at least 1", ModeDirect, func(c *Config) { c.Build.CloneConcurrency = 0 },
			"build.clone_concurrency", []string{"0 is out of range; expected 1 to"}},
		{"shallow_depth not negative", ModeDirect, func(c *Config) { c.Build.ShallowDepth = -1 },
			"build.shallow_depth", []string{"-1 is out of range; expected 0 to"}},
		{"max_retries not negative", ModeDirect, func(c *Config) { c.Build.MaxRetries = -2 },
			"build.max_retries", []string{"-2 is out of range; expected 0 to 20"}},
		{"negative initial delay", ModeDirect, func(c *Config) { c.Build.RetryInitialDelay = -time.Second },
			"build.retry_initial_delay", []string{"-1s is out of range"}},
		{"negative max delay", ModeDirect, func(c *Config) { c.Build.RetryMaxDelay = -time.Minute },
			"build.retry_max_delay", []string{"-1m0s is out of range"}},
		{"initial delay above max", ModeDirect, func(c *Config) { c.Build.RetryInitialDelay = time.Minute },
			"build.retry_initial_delay", []string{"1m0s is longer than build.retry_max_delay (30s)"}},
		{"bad prune_allow glob", ModeDirect, func(c *Config) { c.Build.PruneAllow = []string{"docs", "[x"} },
			"build.prune_allow[1]", []string{"not a valid glob pattern"}},
		{"empty prune_deny glob", ModeDirect, func(c *Config) { c.Build.PruneDeny = []string{""} },
			"build.prune_deny[0]", []string{"is empty"}},
	})
}

func TestBuildRulesAcceptEdgeValues(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Build.ShallowDepth = 0
	c.Build.MaxRetries = 0
	c.Build.RetryInitialDelay = 0
	c.Build.RetryMaxDelay = 0
	c.Build.CloneStrategy = "auto"
	c.Build.PruneAllow = []string{"*.md", "docs"}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}
