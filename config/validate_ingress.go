package config

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// dnsLabel is a Kubernetes namespace name (RFC 1123 label).
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// validateIngress checks the ingress section. The source type is checked
// in every mode because it is part of the same file; the rest only matters
// to `docweave ingress`, so it is checked in ModeIngress only.
func (c *Config) validateIngress(l *problemList) {
	in := c.Ingress
	checkEnum(l, "ingress.source.type", in.Source.Type, "file", "kubernetes")
	if ns := in.Source.Namespace; ns != "" && !dnsLabel.MatchString(ns) {
		l.add("ingress.source.namespace", "%q is not a Kubernetes namespace name; expected at most 63 lower-case letters, digits and -, starting and ending with a letter or digit", ns)
	}
	if sel := in.Source.LabelSelector; sel != "" {
		if _, err := labels.Parse(sel); err != nil {
			l.add("ingress.source.label_selector", "%q is not a Kubernetes label selector (%v); expected for example team=docs,tier!=internal", sel, err)
		}
	}
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
		case !IsToken68(key):
			l.add(k, "%s; it is sent as Authorization: Bearer <key>", token68Expected)
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
		for _, key := range keys {
			if !IsToken68(key.Value) {
				l.add("ingress.api_keys_file", "%s line %d: the key %s", in.APIKeysFile, key.Line, token68Expected)
			}
		}
		count += len(keys)
	}
	if count == 0 {
		l.add("ingress.api_keys", "no API key is configured; expected at least one key in ingress.api_keys or ingress.api_keys_file (the listing endpoint is always protected)")
	}
}
