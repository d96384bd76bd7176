package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// loadStarter writes the starter configuration into a temporary directory
// and loads it.
func loadStarter(t *testing.T, mode Mode) (*Config, error) {
	t.Helper()
	return loadText(t, string(StarterYAML), mode)
}

// starterEnvVars lists every ${NAME} the active (uncommented) lines of the
// starter configuration reference.
func starterEnvVars() []string {
	var names []string
	ref := regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)`)
	for _, line := range strings.Split(string(StarterYAML), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range ref.FindAllStringSubmatch(line, -1) {
			if !slices.Contains(names, m[1]) {
				names = append(names, m[1])
			}
		}
	}
	return names
}

func TestStarterReferencesEnvironment(t *testing.T) {
	names := starterEnvVars()
	slices.Sort(names)
	if want := []string{"DOCWEAVE_BASE_URL", "DOCWEAVE_INGRESS_API_KEY"}; !slices.Equal(names, want) {
		t.Fatalf("starter references %v, want %v (update this test and the docs when it changes)", names, want)
	}
}

func TestStarterValidatesInDaemonModeWithItsVariablesSet(t *testing.T) {
	t.Setenv("DOCWEAVE_BASE_URL", "https://docs.example.com/")
	t.Setenv("DOCWEAVE_INGRESS_API_KEY", "starter-key-0123456789")
	c, err := loadStarter(t, ModeDaemon)
	if err != nil {
		t.Fatalf("starter configuration does not validate:\n%v", err)
	}
	if c.Generator.BaseURL != "https://docs.example.com/" {
		t.Fatalf("base_url = %q, want the environment's value", c.Generator.BaseURL)
	}
}

func TestStarterValidatesWithoutOptionalVariables(t *testing.T) {
	for _, name := range starterEnvVars() {
		if _, set := os.LookupEnv(name); set {
			t.Setenv(name, "")
		}
	}
	c, err := loadStarter(t, ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	if c.Generator.BaseURL != "http://localhost:8080/" {
		t.Fatalf("base_url = %q, want the starter's fallback", c.Generator.BaseURL)
	}
}

func TestStarterValidatesInIngressModeWithKey(t *testing.T) {
	t.Setenv("DOCWEAVE_INGRESS_API_KEY", "starter-key-0123456789")
	c, err := loadStarter(t, ModeIngress)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Ingress.APIKeys, []string{"starter-key-0123456789"}) {
		t.Fatalf("keys = %v", c.Ingress.APIKeys)
	}
	t.Setenv("DOCWEAVE_INGRESS_API_KEY", "")
	_, err = loadStarter(t, ModeIngress)
	requireProblem(t, err, "ingress.api_keys", "no API key is configured")
}

// The starter shows the defaults; if Default() changes, this fails until
// the starter is updated too.
func TestStarterShowsTheDefaults(t *testing.T) {
	c, err := loadStarter(t, ModeDaemon)
	if err != nil {
		t.Fatal(err)
	}
	d := Default()
	// The starter spells the empty prune lists as [], the default is nil.
	if len(c.Build.PruneAllow) == 0 && len(c.Build.PruneDeny) == 0 {
		c.Build.PruneAllow, c.Build.PruneDeny = nil, nil
	}
	same := []struct {
		section   string
		got, want any
	}{
		{"build", c.Build, d.Build},
		{"daemon.link_verification", c.Daemon.LinkVerification, d.Daemon.LinkVerification},
		{"daemon.sync", c.Daemon.Sync, d.Daemon.Sync},
		{"daemon.http", c.Daemon.HTTP, d.Daemon.HTTP},
		{"versioning", c.Versioning, d.Versioning},
		{"generator.taxonomies", c.Generator.Taxonomies, d.Generator.Taxonomies},
		{"output.clean", c.Output.Clean, d.Output.Clean},
		{"ingress.port", c.Ingress.Port, d.Ingress.Port},
		{"ingress.cache_control", c.Ingress.CacheControl, d.Ingress.CacheControl},
		{"ingress.source.type", c.Ingress.Source.Type, d.Ingress.Source.Type},
	}
	for _, s := range same {
		if !reflect.DeepEqual(s.got, s.want) {
			t.Errorf("starter %s = %+v, want the default %+v", s.section, s.got, s.want)
		}
	}
	if want := filepath.Join(filepath.Dir(c.Path), "site"); c.Output.Directory != want || c.Daemon.Storage.OutputDir != want {
		t.Errorf("output = %q / %q, want %q", c.Output.Directory, c.Daemon.Storage.OutputDir, want)
	}
}

// Every key appears in the starter, set or commented out.
func TestStarterMentionsEveryKey(t *testing.T) {
	text := string(StarterYAML)
	for _, path := range keyPaths() {
		if oldKeys[path] {
			continue // an older name: the starter shows the current one
		}
		name := path[strings.LastIndexAny(path, ".]")+1:]
		if !strings.Contains(text, name+":") {
			t.Errorf("starter.yaml does not mention %s (%q)", path, name+":")
		}
	}
}

// The starter file uses the current key names only, not the aliases that
// still load (broker_url, nats_url, embedded_broker).
func TestStarterUsesCurrentKeyNames(t *testing.T) {
	for _, old := range []string{"broker_url", "nats_url", "embedded_broker"} {
		if strings.Contains(string(StarterYAML), old) {
			t.Errorf("the starter configuration names the old key %s", old)
		}
	}
}
