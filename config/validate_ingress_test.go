package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestIngressRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"source type enum in any mode", ModeDirect, func(c *Config) { c.Ingress.Source.Type = "consul" },
			"ingress.source.type", []string{`"consul" is not allowed; expected one of file, kubernetes`}},
		{"port range", ModeIngress, func(c *Config) { c.Ingress.Port = 0 },
			"ingress.port", []string{"port 0 is out of range"}},
		{"file source needs path", ModeIngress, func(c *Config) { c.Ingress.Source.Path = "" },
			"ingress.source.path", []string{"missing; ingress.source.type file needs"}},
		{"at least one key", ModeIngress, func(c *Config) { c.Ingress.APIKeys = nil },
			"ingress.api_keys", []string{"no API key is configured", "always protected"}},
		{"empty key rejected", ModeIngress, func(c *Config) { c.Ingress.APIKeys = []string{"good-key", ""} },
			"ingress.api_keys[1]", []string{"is empty; expected a non-empty API key"}},
		{"blank key rejected", ModeIngress, func(c *Config) { c.Ingress.APIKeys = []string{"  "} },
			"ingress.api_keys[0]", []string{"is empty"}},
		{"only empty keys is no key", ModeIngress, func(c *Config) { c.Ingress.APIKeys = []string{""} },
			"ingress.api_keys", []string{"no API key is configured"}},
		{"key with whitespace", ModeIngress, func(c *Config) { c.Ingress.APIKeys = []string{"two words"} },
			"ingress.api_keys[0]", []string{"characters a bearer token cannot carry"}},
		{"unreadable key file", ModeIngress, func(c *Config) {
			c.Ingress.APIKeys = nil
			c.Ingress.APIKeysFile = filepath.Join(c.loadState.baseDir, "missing-keys")
		}, "ingress.api_keys_file", []string{"read API keys", "missing-keys"}},
	})
}

func TestIngressRulesOnlyInIngressMode(t *testing.T) {
	for _, mode := range []Mode{ModeDirect, ModeDaemon} {
		c := validConfig(t, mode)
		c.Ingress.Port = 0
		c.Ingress.APIKeys = []string{""}
		c.Ingress.Source.Path = ""
		if err := c.Validate(); err != nil {
			t.Fatalf("%s mode must not check ingress settings: %v", mode, err)
		}
	}
}

func TestIngressKeysFromFileSatisfyRule(t *testing.T) {
	c := validConfig(t, ModeIngress)
	file := filepath.Join(t.TempDir(), "keys")
	writeFile(t, file, "# rotated 2024-05\nkey-one\n\n  key-two  \n")
	c.Ingress.APIKeys = nil
	c.Ingress.APIKeysFile = file
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, "# only comments\n\n")
	requireProblem(t, c.Validate(), "ingress.api_keys", "no API key is configured")
}

func TestKubernetesSourceNeedsNoPath(t *testing.T) {
	c := validConfig(t, ModeIngress)
	c.Ingress.Source = IngressSource{Type: "kubernetes", Namespace: "docs"}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestIngressProblemsNeverShowKeys(t *testing.T) {
	c := validConfig(t, ModeIngress)
	c.Ingress.APIKeys = []string{"has SECRETVALUE space"}
	err := c.Validate()
	problemsOf(t, err)
	if strings.Contains(err.Error(), "SECRETVALUE") {
		t.Fatalf("key echoed: %v", err)
	}
}
