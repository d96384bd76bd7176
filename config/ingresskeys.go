package config

import (
	"fmt"
	"os"
	"strings"
)

// IngressAPIKeys returns every API key the ingress endpoint accepts: the
// non-empty entries of ingress.api_keys followed by the keys of
// ingress.api_keys_file. The file is read on every call, so a server can
// pick up rotated keys without a restart. Errors never contain a key.
func (c *Config) IngressAPIKeys() ([]string, error) {
	var keys []string
	for _, k := range c.Ingress.APIKeys {
		if strings.TrimSpace(k) != "" {
			keys = append(keys, k)
		}
	}
	if c.Ingress.APIKeysFile != "" {
		fromFile, err := readAPIKeysFile(c.Ingress.APIKeysFile)
		if err != nil {
			return nil, fmt.Errorf("ingress.api_keys_file: %w", err)
		}
		keys = append(keys, fromFile...)
	}
	return keys, nil
}

// readAPIKeysFile reads one key per line; blank lines and lines starting
// with # are ignored and surrounding whitespace is trimmed.
func readAPIKeysFile(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read API keys: %w", err)
	}
	var keys []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.ContainsAny(line, " \t") {
			return nil, fmt.Errorf("%s line %d: key contains whitespace; expected one key per line", path, i+1)
		}
		keys = append(keys, line)
	}
	return keys, nil
}
