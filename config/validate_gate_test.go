package config

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// leaf is one settable configuration value found by walking the structs.
type leaf struct {
	key   string
	value reflect.Value
}

// leaves lists every settable value below v by key path; a list of
// structs contributes its first element (the valid baseline has one
// repository).
func leaves(v reflect.Value, key string) []leaf {
	var out []leaf
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := keyName(t.Field(i))
		if name == "" {
			continue
		}
		f, k := v.Field(i), joinKey(key, name)
		switch {
		case f.Type() == durationType:
			out = append(out, leaf{k, f})
		case f.Kind() == reflect.Struct:
			out = append(out, leaves(f, k)...)
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct:
			if f.Len() > 0 {
				out = append(out, leaves(f.Index(0), k+"[0]")...)
			}
		default:
			out = append(out, leaf{k, f})
		}
	}
	return out
}

// Validation is the one gate: every number of the configuration has an
// upper bound, and every string refuses control characters. Walking the
// structs makes a new key without a bound fail this test.
func TestEveryNumberHasAnUpperBound(t *testing.T) {
	base := validConfig(t, ModeDaemon)
	for _, lf := range leaves(reflect.ValueOf(base).Elem(), "") {
		var huge any
		switch {
		case lf.value.Type() == durationType:
			huge = time.Duration(math.MaxInt64)
		case lf.value.Kind() == reflect.Int:
			huge = math.MaxInt
		default:
			continue
		}
		t.Run(lf.key, func(t *testing.T) {
			c := validConfig(t, modeOf(lf.key))
			setLeaf(t, c, lf.key, huge)
			requireProblem(t, c.Validate(), lf.key)
		})
	}
}

func TestEveryStringRefusesNUL(t *testing.T) {
	base := validConfig(t, ModeDaemon)
	for _, lf := range leaves(reflect.ValueOf(base).Elem(), "") {
		kind := lf.value.Kind()
		isStrings := kind == reflect.Slice && lf.value.Type().Elem().Kind() == reflect.String
		if kind != reflect.String && !isStrings && kind != reflect.Map {
			continue
		}
		t.Run(lf.key, func(t *testing.T) {
			c := validConfig(t, modeOf(lf.key))
			want := lf.key
			switch {
			case kind == reflect.String:
				setLeaf(t, c, lf.key, "Zq9vXw\x00value")
			case isStrings:
				setLeaf(t, c, lf.key, []string{"Zq9vXw\x00value"})
				want += "[0]"
			case lf.value.Type().Elem().Kind() == reflect.String:
				setLeaf(t, c, lf.key, map[string]string{"name": "Zq9vXw\x00value"})
				want += ".name"
			default:
				setLeaf(t, c, lf.key, map[string]any{"name": []any{"Zq9vXw\x00value"}})
				want += ".name[0]"
			}
			err := c.Validate()
			p := requireProblem(t, err, want, "control character U+0000")
			if isSecretKey(lf.key) && strings.Contains(err.Error(), "Zq9vXw") {
				t.Fatalf("the problem repeats a secret: %v", p)
			}
		})
	}
}

// modeOf is the mode whose rules cover a key: ingress keys are checked in
// ingress mode only.
func modeOf(key string) Mode {
	if strings.HasPrefix(key, "ingress.") {
		return ModeIngress
	}
	return ModeDaemon
}

// setLeaf sets the value at a key path found by leaves.
func setLeaf(t *testing.T, c *Config, key string, value any) {
	t.Helper()
	for _, lf := range leaves(reflect.ValueOf(c).Elem(), "") {
		if lf.key == key {
			lf.value.Set(reflect.ValueOf(value).Convert(lf.value.Type()))
			return
		}
	}
	t.Fatalf("no key %s", key)
}

// The values of issue 16 that passed validation and then crashed or
// exhausted a process, each refused at load naming its key.
func TestLoadRefusesValuesThatCrashLater(t *testing.T) {
	cases := []struct {
		yaml, key string
		want      []string
	}{
		{"daemon:\n  admin:\n    token: \"a b c\"\n", "daemon.admin.token", []string{"bearer token"}},
		{"build:\n  clone_concurrency: 2000000000\n", "build.clone_concurrency", []string{"2000000000 is out of range; expected 1 to 256"}},
		{"build:\n  max_retries: 1e12\n", "build.max_retries", []string{"out of range; expected 0 to 20"}},
		{"daemon:\n  webhooks:\n    max_body_bytes: 9000000000\n", "daemon.webhooks.max_body_bytes", []string{"out of range"}},
		{"daemon:\n  http:\n    livereload_limits:\n      max_streams: 0\n", "daemon.http.livereload_limits.max_streams", []string{"out of range"}},
	}
	for _, tc := range cases {
		t.Run(tc.key, func(t *testing.T) {
			_, err := loadText(t, oneRepo+tc.yaml, ModeDaemon)
			requireProblem(t, err, tc.key, tc.want...)
		})
	}
	_, err := loadText(t, "repositories:\n  - url: \"https://git.example.com/a\\0b.git\"\n    name: a\n", ModeDirect)
	requireProblem(t, err, "repositories[0].url", "control character U+0000")
}

func TestRepositoryURLs(t *testing.T) {
	good := []string{
		"https://git.example.com/org/repo.git", "http://127.0.0.1:8080/r.git", "HTTPS://host/r",
		"https://user:tok@host/org/repo.git", "ssh://git@host:2222/org/repo.git", "git://host/repo.git",
		"file:///srv/git/repo", "file://localhost/srv/git/repo", "git@github.com:org/repo.git",
		"host.example:org/repo", "[::1]:org/repo", "/srv/git/repo",
	}
	for _, u := range good {
		if msg := repoURLProblem(u); msg != "" {
			t.Errorf("%q refused: %s", u, msg)
		}
	}
	bad := map[string]string{
		"not a url":                    "contains whitespace",
		"notaurl":                      "is not a URL",
		"ftp://host/repo.git":          `has scheme "ftp"`,
		"https:///repo.git":            "has no host",
		"https://host":                 "names no repository",
		"https://host:99999/r.git":     "has port 99999",
		"https://-oProxyCommand=x/r":   "starting with '-'",
		"file://":                      "names no repository path",
		"file://evil.example/srv/repo": "a file:// URL is local",
		"-oProxyCommand=x:repo":        "is not a URL",
		"relative/path":                "is not a URL",
		"":                             "missing",
		"https://user:s3cret@host/x y": "contains whitespace",
	}
	for u, want := range bad {
		msg := repoURLProblem(u)
		if !strings.Contains(msg, want) {
			t.Errorf("%q: %q, want it to contain %q", u, msg, want)
		}
		if strings.Contains(msg, "s3cret") {
			t.Errorf("%q: the problem shows the password: %s", u, msg)
		}
	}
}

func TestBranchNames(t *testing.T) {
	for _, ok := range []string{"main", "release/1.2", "v1.0.0", "refs/heads/main", "feature_x-y"} {
		if msg := refNameProblem(ok); msg != "" {
			t.Errorf("%q refused: %s", ok, msg)
		}
	}
	for _, bad := range []string{"a b", "-x", "a..b", "a/", "/a", "a//b", "x.lock", ".hidden", "a/.b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`, "@", "a@{1}", "x."} {
		if refNameProblem(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRepositoryRulesOfIssue16(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"docs root in .git", ModeDirect, func(c *Config) { c.Repositories[0].Paths = []string{"docs/../.GIT"} },
			"repositories[0].paths[0]", []string{".git directory"}},
		{"long name", ModeDirect, func(c *Config) { c.Repositories[0].Name = strings.Repeat("a", 101) },
			"repositories[0].name", []string{"at most 100"}},
		{"bad branch", ModeDirect, func(c *Config) { c.Repositories[0].Branch = "main branch" },
			"repositories[0].branch", []string{"ref name"}},
		{"colon in user name", ModeDirect, func(c *Config) {
			c.Repositories[0].Auth = Auth{Type: AuthBasic, Username: "a:b", Password: "pw-0123"}
		}, "repositories[0].auth.username", []string{"':'"}},
		{"newline in a secret", ModeDirect, func(c *Config) {
			c.Repositories[0].Auth = Auth{Type: AuthToken, Token: "tok-0123\n"}
		}, "repositories[0].auth.token", []string{"U+000A"}},
		{"tab is fine in a title", ModeDirect, func(c *Config) {
			c.Generator.Title = "a\tb"
			c.Generator.Description = "one\ntwo"
			c.Build.CloneConcurrency = 0 // some problem, so the error is not nil
		}, "build.clone_concurrency", nil},
	})
	c := validConfig(t, ModeDirect)
	c.Generator.Title, c.Generator.Description = "a\tb", "line one\r\nline two"
	if err := c.Validate(); err != nil {
		t.Fatalf("free text with tabs and line breaks refused: %v", err)
	}
}

func TestLimitRelations(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"page above file", ModeDirect, func(c *Config) { c.Build.Limits.MaxPageBytes, c.Build.Limits.MaxFileBytes = 2000, 1000 },
			"build.limits.max_page_bytes", []string{"is more than build.limits.max_file_bytes (1000)"}},
		{"file above total", ModeDirect, func(c *Config) { c.Build.Limits.MaxFileBytes, c.Build.Limits.MaxTotalBytes = 5000, 3000 },
			"build.limits.max_file_bytes", []string{"more than build.limits.max_total_bytes"}},
		{"per client above total", ModeDaemon, func(c *Config) { c.Daemon.HTTP.Limits.MaxConnectionsPerClient = 5000 },
			"daemon.http.limits.max_connections_per_client", []string{"more than daemon.http.limits.max_connections (2048)"}},
		{"streams above connections", ModeDaemon, func(c *Config) { c.Daemon.HTTP.LiveReloadLimits.MaxStreams = 3000 },
			"daemon.http.livereload_limits.max_streams", []string{"every stream is a connection"}},
		{"streams per client above streams", ModeDaemon, func(c *Config) { c.Daemon.HTTP.LiveReloadLimits.MaxStreamsPerClient = 1001 },
			"daemon.http.livereload_limits.max_streams_per_client", []string{"more than daemon.http.livereload_limits.max_streams"}},
		{"read timeout below header timeout", ModeIngress, func(c *Config) { c.Ingress.Limits.ReadTimeout = 5 * time.Second },
			"ingress.limits.read_timeout", []string{"shorter than ingress.limits.read_header_timeout (10s)"}},
		{"zero idle timeout", ModeIngress, func(c *Config) { c.Ingress.Limits.IdleTimeout = 0 },
			"ingress.limits.idle_timeout", []string{"0s is out of range"}},
	})
}

func TestIngressSourceAndKeyRules(t *testing.T) {
	keys := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keys, []byte("# keys\ngood-key-0123\nbad\x01key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runRuleCases(t, []ruleCase{
		{"namespace", ModeDaemon, func(c *Config) { c.Ingress.Source.Namespace = "../kube-system" },
			"ingress.source.namespace", []string{"not a Kubernetes namespace name"}},
		{"selector", ModeDaemon, func(c *Config) { c.Ingress.Source.LabelSelector = "team=(docs" },
			"ingress.source.label_selector", []string{"not a Kubernetes label selector"}},
		{"key file", ModeIngress, func(c *Config) { c.Ingress.APIKeysFile = keys },
			"ingress.api_keys_file", []string{fmt.Sprintf("%s line 3", keys)}},
	})
}

func TestTrustedDefaultsToTrue(t *testing.T) {
	c := mustLoad(t, oneRepo+"  - {url: \"https://git.example.com/b.git\", name: b, trusted: false}\n", ModeDirect)
	if !c.Repositories[0].IsTrusted() || c.Repositories[1].IsTrusted() {
		t.Fatalf("trusted = %v, %v; want true (default), false", c.Repositories[0].IsTrusted(), c.Repositories[1].IsTrusted())
	}
}

func TestIsToken68(t *testing.T) {
	for s, want := range map[string]bool{
		"abc": true, "a-b.c_d~e+f/g": true, "YWJj==": true, "tok=": true,
		"": false, "a b c": false, "=abc": false, "a=b": false, "tök": false, "a\tb": false,
	} {
		if got := IsToken68(s); got != want {
			t.Errorf("IsToken68(%q) = %v, want %v", s, got, want)
		}
	}
}
