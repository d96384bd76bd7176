package config

import (
	"fmt"
	"strings"
)

// validateIngress checks the ingress section. The source type is checked
// in every mode because it is part of the same file; the rest only matters
// to `docweave ingress`, so it is checked in ModeIngress only.
func (c *Config) validateIngress(l *problemList) {
	in := c.Ingress
	checkEnum(l, "ingress.source.type", in.Source.Type, "file", "kubernetes")
	if c.Mode != ModeIngress {
		return
	}
	checkPort(l, "ingress.port", in.Port)
	if in.Source.Type == "file" && in.Source.Path == "" {
		l.add("ingress.source.path", "missing; ingress.source.type file needs the path of the ingress file")
	}

	count := 0
	for i, key := range in.APIKeys {
		k := fmt.Sprintf("ingress.api_keys[%d]", i)
		switch {
		case strings.TrimSpace(key) == "":
			l.add(k, "is empty; expected a non-empty API key")
		case strings.ContainsAny(key, " \t\r\n"):
			l.add(k, "contains whitespace; expected a single token usable as Authorization: Bearer <key>")
		default:
			count++
		}
	}
	if in.APIKeysFile != "" {
		keys, err := ReadAPIKeysFile(in.APIKeysFile)
		if err != nil {
			l.add("ingress.api_keys_file", "%v", err)
			return
		}
		count += len(keys)
	}
	if count == 0 {
		l.add("ingress.api_keys", "no API key is configured; expected at least one key in ingress.api_keys or ingress.api_keys_file (the listing endpoint is always protected)")
	}
}
