package config

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestKeyPaths(t *testing.T) {
	paths := keyPaths()
	for _, want := range []string{
		"repositories", "repositories[].url", "repositories[].auth", "repositories[].auth.key_path",
		"build.skip_if_unchanged", "daemon.link_verification.broker_url", "daemon.http.livereload_port",
		"generator.params", "generator.taxonomies", "ingress.source.label_selector",
	} {
		if !slices.Contains(paths, want) {
			t.Errorf("keyPaths lacks %s", want)
		}
	}
	for _, p := range paths {
		if strings.Contains(p, "Path") || strings.Contains(p, "BrokerURLSet") || strings.HasSuffix(p, ".-") {
			t.Errorf("keyPaths contains a field that is not a key: %s", p)
		}
	}
	if n := len(paths); n < 70 {
		t.Errorf("only %d key paths; the walk is missing sections", n)
	}
}

// docsReference reads docs/configuration.md relative to this package.
func docsReference(t *testing.T) string {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatalf("read the configuration reference: %v", err)
	}
	return string(data)
}

// The reference must describe every key path, so it cannot drift from the
// structs.
func TestReferenceDocumentsEveryKey(t *testing.T) {
	doc := docsReference(t)
	for _, p := range keyPaths() {
		if !strings.Contains(doc, "`"+p+"`") {
			t.Errorf("docs/configuration.md does not document `%s`", p)
		}
	}
}

func TestReferenceDocumentsAliasesAndRules(t *testing.T) {
	doc := docsReference(t)
	for _, want := range []string{
		"`hugo`", "`nats_url`", "`${VAR}`", "`${VAR:-default}`", "`$$`", "`.env`", "`.env.local`",
		"127.0.0.1:4222", "DOCWEAVE_BASE_URL", "DOCWEAVE_INGRESS_API_KEY",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/configuration.md does not mention %s", want)
		}
	}
}
