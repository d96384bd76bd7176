package config

import (
	"fmt"
	"os"
	"strings"
)

// APIKey is one key of an ingress API key file, with its line for messages
// that must point at it without showing it.
type APIKey struct {
	Line  int
	Value string
}

// ReadAPIKeysFile reads an ingress.api_keys_file: one key per line, blank
// lines and lines starting with # ignored, surrounding whitespace trimmed.
// It is the one parser of that format: configuration validation and the
// ingress server (which re-reads the file to pick up rotated keys) both use
// it. Errors never contain a key.
func ReadAPIKeysFile(path string) ([]APIKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read API keys: %w", err)
	}
	var keys []APIKey
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.ContainsAny(line, " \t") {
			return nil, fmt.Errorf("%s line %d: key contains whitespace; expected one key per line", path, i+1)
		}
		keys = append(keys, APIKey{Line: i + 1, Value: line})
	}
	return keys, nil
}
