package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadFillsPathAndMode(t *testing.T) {
	path := writeConfig(t, oneRepo)
	for _, mode := range []Mode{ModeDirect, ModeDaemon} {
		c, err := Load(path, mode)
		if err != nil {
			t.Fatal(err)
		}
		if c.Path != path || c.Mode != mode || c.BaseDir() != filepath.Dir(path) {
			t.Fatalf("Path=%q Mode=%v BaseDir=%q", c.Path, c.Mode, c.BaseDir())
		}
	}
}

func TestLoadRelativeFileName(t *testing.T) {
	path := writeConfig(t, oneRepo) // also changes into its directory
	c, err := Load(filepath.Base(path), ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != path {
		t.Fatalf("Path = %q, want the absolute %q", c.Path, path)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), ModeDirect)
	if err == nil || !strings.Contains(err.Error(), "read configuration") || !strings.Contains(err.Error(), "nope.yaml does not exist; write a commented starter with `docweave init -c ") {
		t.Fatalf("error = %v", err)
	}
}

// A tab in the indentation is named with its line and what YAML wants,
// not the parser's "found character that cannot start any token".
func TestLoadTabIndentSaysYAMLIndentsWithSpaces(t *testing.T) {
	path := writeConfig(t, "repositories:\n  - name: a\n\turl: file:///x\n")
	_, err := Load(path, ModeDirect)
	if err == nil || !strings.Contains(err.Error(), path+":3:1: invalid YAML: this line is indented with a tab; YAML indents with spaces only") {
		t.Fatalf("error = %v", err)
	}
	// A tab inside a block of text is no mistake.
	if _, err := LoadBytes([]byte("repositories:\n  - name: a\n    url: file:///x\ngenerator:\n  description: |\n    one\n    \ttwo\n"), t.TempDir(), ModeDirect); err != nil {
		t.Fatalf("a tab in a block scalar: %v", err)
	}
}

func TestLoadSyntaxErrorNamesFile(t *testing.T) {
	path := writeConfig(t, "repositories:\n  - url: [unclosed\n")
	_, err := Load(path, ModeDirect)
	if err == nil || !strings.Contains(err.Error(), path+":2:10: invalid YAML") || !strings.Contains(err.Error(), "[unclosed") {
		t.Fatalf("error = %v, want a parse error naming %s:2:10 and showing the line", err, path)
	}
}

// The case: a key indented one space short on line 4 is reported
// on line 4, not line 1, with its column and the line itself.
func TestLoadSyntaxErrorPointsAtTheLine(t *testing.T) {
	path := writeConfig(t, "repositories:\n  - url: https://git.example.com/a.git\n    name: a\n   paths: [docs]\noutput:\n  directory: ./site\n")
	_, err := Load(path, ModeDirect)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 4 || se.Column != 4 || se.File != path {
		t.Fatalf("error = %v, want a syntax error at %s:4:4", err, path)
	}
	if !strings.Contains(err.Error(), "4 |    paths: [docs]") || strings.Contains(err.Error(), "While parsing config") {
		t.Fatalf("error does not show line 4 plainly:\n%v", err)
	}
}

// Problems found after parsing carry the file, line and column of their
// key, with the key path, in the order of the file.
func TestProblemsPointAtTheirKeys(t *testing.T) {
	path := writeConfig(t, "repositories:\n  - url: https://git.example.com/a.git\n    name: a\nbuild:\n  clone_strategy: turbo\n  clone_concurency: 3\nhugo:\n  titel: x\ndaemon:\n  http:\n    admin_port: \"abc\"\n")
	_, err := Load(path, ModeDirect)
	want := []string{
		path + `:5:3: build.clone_strategy: "turbo" is not allowed`,
		path + `:6:3: build.clone_concurency: unknown key; did you mean "clone_concurrency"?`,
		path + `:8:3: generator.titel: unknown key`,
		path + `:11:5: daemon.http.admin_port: wrong type`,
	}
	lines := strings.Split(fmt.Sprint(err), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d problems:\n%v", len(lines), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start with %q", i+1, lines[i], w)
		}
	}
	// A required key the file does not write is reported at its section.
	_, err = Load(writeConfig(t, "repositories:\n  - url: https://git.example.com/a.git\n"), ModeDirect)
	p := requireProblem(t, err, "repositories[0].name", "")
	if p.Position.Line != 2 {
		t.Fatalf("missing name reported at %v, want the list item on line 2", p.Position)
	}
}

func TestLoadTopLevelMustBeMapping(t *testing.T) {
	if _, err := loadText(t, "- just\n- a list\n", ModeDirect); err == nil {
		t.Fatal("a YAML list as the whole file should not load")
	}
}

func TestRelativePathsResolvedAgainstConfigDirectory(t *testing.T) {
	root := t.TempDir()
	configDir := filepath.Join(root, "etc", "docweave")
	path := filepath.Join(configDir, "docweave.yaml")
	writeFile(t, path, `repositories:
  - url: git@git.example.com:org/a.git
    name: a
    auth: {type: ssh, key_path: keys/id_ed25519}
build:
  workspace_dir: ./work/../workspace
output:
  directory: ../site
daemon:
  storage:
    output_dir: ../site/
    repo_cache_dir: cache
ingress:
  api_keys_file: secrets/keys
  source:
    path: ingresses.yaml
    kubeconfig: /abs/kubeconfig
`)
	t.Chdir(root) // the working directory must not matter
	c, err := Load(path, ModeDaemon)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][2]string{
		"repositories[0].auth.key_path": {c.Repositories[0].Auth.KeyPath, filepath.Join(configDir, "keys", "id_ed25519")},
		"build.workspace_dir":           {c.Build.WorkspaceDir, filepath.Join(configDir, "workspace")},
		"output.directory":              {c.Output.Directory, filepath.Join(root, "etc", "site")},
		"daemon.storage.output_dir":     {c.Daemon.Storage.OutputDir, filepath.Join(root, "etc", "site")},
		"daemon.storage.repo_cache_dir": {c.Daemon.Storage.RepoCacheDir, filepath.Join(configDir, "cache")},
		"ingress.api_keys_file":         {c.Ingress.APIKeysFile, filepath.Join(configDir, "secrets", "keys")},
		"ingress.source.path":           {c.Ingress.Source.Path, filepath.Join(configDir, "ingresses.yaml")},
		"ingress.source.kubeconfig":     {c.Ingress.Source.Kubeconfig, "/abs/kubeconfig"},
	}
	for key, gw := range cases {
		if gw[0] != gw[1] {
			t.Errorf("%s = %q, want %q", key, gw[0], gw[1])
		}
	}
	if c.Repositories[0].URL != "git@git.example.com:org/a.git" {
		t.Errorf("URL must not be treated as a path: %q", c.Repositories[0].URL)
	}
}

func TestLoadBytesResolvesAgainstDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir())
	c, err := LoadBytes([]byte(oneRepo+"output:\n  directory: out\n"), dir, ModeDaemon)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "" || c.Output.Directory != filepath.Join(dir, "out") || c.Daemon.Storage.OutputDir != c.Output.Directory {
		t.Fatalf("Path=%q output=%q storage=%q", c.Path, c.Output.Directory, c.Daemon.Storage.OutputDir)
	}
}

func TestLoadBytesEmptyDirMeansWorkingDirectory(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	c, err := LoadBytes([]byte(oneRepo), "", ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	if c.Output.Directory != filepath.Join(work, "site") {
		t.Fatalf("output = %q, want under %q", c.Output.Directory, work)
	}
}

func TestDefaultPathsPerRepository(t *testing.T) {
	c := mustLoad(t, `repositories:
  - {url: "https://git.example.com/a.git", name: a}
  - {url: "https://git.example.com/b.git", name: b, paths: [handbook, api/docs]}
`, ModeDirect)
	if !slices.Equal(c.Repositories[0].Paths, []string{"docs"}) || !slices.Equal(c.Repositories[1].Paths, []string{"handbook", "api/docs"}) {
		t.Fatalf("paths = %v / %v", c.Repositories[0].Paths, c.Repositories[1].Paths)
	}
}

func TestBrokerURLSet(t *testing.T) {
	t.Setenv("DW_TEST_EMPTY_BROKER", "")
	cases := []struct {
		name, section string
		wantSet       bool
		wantURL       string
	}{
		{"absent", "", false, DefaultBrokerURL},
		{"broker_url", "daemon:\n  link_verification:\n    broker_url: tls://b.example:4222\n", true, "tls://b.example:4222"},
		{"same as default is still set", "daemon:\n  link_verification:\n    broker_url: nats://127.0.0.1:4222\n", true, DefaultBrokerURL},
		{"nats_url alias", "daemon:\n  link_verification:\n    nats_url: nats://b.example:4222\n", true, "nats://b.example:4222"},
		{"broker.url", "broker:\n  url: nats://c.example:4222\n", true, "nats://c.example:4222"},
		{"broker.url and the same alias", "broker:\n  url: nats://c.example:4222\ndaemon:\n  link_verification:\n    broker_url: nats://c.example:4222\n", true, "nats://c.example:4222"},
		{"empty from environment counts as unset", "daemon:\n  link_verification:\n    broker_url: ${DW_TEST_EMPTY_BROKER:-}\n", false, DefaultBrokerURL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mustLoad(t, oneRepo+tc.section, ModeDirect)
			lv := c.Daemon.LinkVerification
			if c.Broker.External() != tc.wantSet || lv.BrokerURL != tc.wantURL {
				t.Fatalf("external=%v broker_url=%q, want %v %q", c.Broker.External(), lv.BrokerURL, tc.wantSet, tc.wantURL)
			}
			if tc.wantSet && c.Broker.URL != tc.wantURL {
				t.Fatalf("broker.url = %q, want %q", c.Broker.URL, tc.wantURL)
			}
		})
	}
}

func TestLoadReadsDotEnvFiles(t *testing.T) {
	path := writeConfig(t, `repositories:
  - url: https://git.example.com/org/a.git
    name: a
    auth: {type: token, token: "${DW_TEST_DOTENV_TOKEN}"}
generator:
  title: "${DW_TEST_DOTENV_TITLE}"
  description: "${DW_TEST_DOTENV_DESC}"
`)
	dir := filepath.Dir(path)
	writeFile(t, filepath.Join(dir, ".env"), "DW_TEST_DOTENV_TOKEN=from-env\nDW_TEST_DOTENV_TITLE=env-title\nDW_TEST_DOTENV_DESC=env-desc\n")
	writeFile(t, filepath.Join(dir, ".env.local"), "export DW_TEST_DOTENV_TITLE='local title'\n")
	t.Setenv("DW_TEST_DOTENV_DESC", "process-desc")

	c, err := Load(path, ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	if c.Repositories[0].Auth.Token != "from-env" || c.Generator.Title != "local title" || c.Generator.Description != "process-desc" {
		t.Fatalf("token=%q title=%q desc=%q", c.Repositories[0].Auth.Token, c.Generator.Title, c.Generator.Description)
	}
	if want := []string{filepath.Join(dir, ".env"), filepath.Join(dir, ".env.local")}; !slices.Equal(c.EnvFiles(), want) {
		t.Fatalf("EnvFiles = %v, want %v", c.EnvFiles(), want)
	}
	if _, set := os.LookupEnv("DW_TEST_DOTENV_TOKEN"); set {
		t.Fatal("loading a .env file must not change the process environment")
	}
}

func TestLoadReadsDotEnvFromWorkingDirectoryToo(t *testing.T) {
	configDir, workDir := t.TempDir(), t.TempDir()
	path := filepath.Join(configDir, "docweave.yaml")
	writeFile(t, path, oneRepo+"generator:\n  title: ${DW_TEST_WD_TITLE}\n")
	writeFile(t, filepath.Join(configDir, ".env"), "DW_TEST_WD_TITLE=config-dir\n")
	writeFile(t, filepath.Join(workDir, ".env"), "DW_TEST_WD_TITLE=work-dir\n")
	t.Chdir(workDir)
	c, err := Load(path, ModeDirect)
	if err != nil {
		t.Fatal(err)
	}
	if c.Generator.Title != "work-dir" {
		t.Fatalf("title = %q, want the working directory's .env to win over the config directory's", c.Generator.Title)
	}
}

func TestLoadBadDotEnvIsAnError(t *testing.T) {
	path := writeConfig(t, oneRepo)
	writeFile(t, filepath.Join(filepath.Dir(path), ".env"), "TOKEN=\"unterminated-secret\n")
	_, err := Load(path, ModeDirect)
	if err == nil || !strings.Contains(err.Error(), ".env") || strings.Contains(err.Error(), "unterminated-secret") {
		t.Fatalf("error = %v", err)
	}
}

func TestLoadReturnsValidationError(t *testing.T) {
	_, err := loadText(t, oneRepo+"build:\n  clone_strategy: turbo\n", ModeDirect)
	requireProblem(t, err, "build.clone_strategy", `"turbo" is not allowed`)
}
