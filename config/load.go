package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
)

// loadState is what the loader learned that the public fields cannot hold.
type loadState struct {
	// baseDir is the directory relative paths were resolved against.
	baseDir string
	// decodeProblems are unknown keys, wrong types and failed ${VAR}
	// expansions; Validate reports them together with its own findings.
	decodeProblems []Problem
	// envFiles are the .env files that were read, in load order.
	envFiles []string
	// brokerURLKey is the key the broker URL was written under (broker.url
	// or its alias daemon.link_verification.broker_url), for problems.
	brokerURLKey string
	// positions are the keys' places in the file (see Where).
	positions map[string]Position
}

// Load reads the YAML configuration file at path for the given mode,
// applies defaults, .env files and ${VAR} expansion, resolves relative
// paths against the file's directory and validates the result. A
// configuration with problems returns a *ValidationError listing all of
// them.
func Load(path string, mode Mode) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("resolve configuration path %s: %w", path, err)
	}
	data, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read configuration: %s does not exist; write a commented starter with `docweave init -c %s`, or name another file with -c: %w", path, path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("read configuration: %w", err)
	}
	return load(data, filepath.Dir(abs), abs, mode)
}

// LoadBytes is Load for configuration text that does not come from a file
// (tests, `docweave validate -`, embedded examples). dir plays the role of
// the file's directory: relative paths are resolved against it and .env
// files are read from it; "" means the working directory.
func LoadBytes(data []byte, dir string, mode Mode) (*Config, error) {
	return load(data, dir, "", mode)
}

func load(data []byte, dir, path string, mode Mode) (*Config, error) {
	workDir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("determine working directory: %w", err)
	}
	if dir == "" {
		dir = workDir
	}
	baseDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolve configuration directory %s: %w", dir, err)
	}
	raw, positions, err := readYAML(data, path)
	if err != nil {
		return nil, err
	}
	env, envFiles, err := buildEnvironment(baseDir, workDir, os.Environ())
	if err != nil {
		return nil, fmt.Errorf("load .env files: %w", err)
	}

	c := Default()
	dec := newDecoder(mapLookup(env))
	dec.structure("", raw, reflect.ValueOf(&c).Elem())
	applyLoadedDefaults(&c, dec.present)
	dec.problems = append(dec.problems, resolveBroker(&c, dec.present)...)
	resolvePaths(&c, baseDir)

	c.Path = path
	c.Mode = mode
	c.loadState = loadState{baseDir: baseDir, decodeProblems: dec.problems, envFiles: envFiles, brokerURLKey: "broker.url", positions: positions}
	if !dec.present["broker.url"] && dec.present["daemon.link_verification.broker_url"] {
		c.loadState.brokerURLKey = "daemon.link_verification.broker_url"
	}
	if err := c.Validate(); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			ve.File = path
			for i := range ve.Problems {
				ve.Problems[i].Position, _ = positionOf(ve.Problems[i].Key, positions)
			}
			sortByPosition(ve.Problems)
		}
		return nil, err
	}
	return &c, nil
}

// applyLoadedDefaults fills the defaults that depend on what the file set.
func applyLoadedDefaults(c *Config, present map[string]bool) {
	for i := range c.Repositories {
		if !present[fmt.Sprintf("repositories[%d].paths", i)] {
			c.Repositories[i].Paths = []string{DefaultDocsPath}
		}
	}
	if !present["daemon.storage.output_dir"] {
		c.Daemon.Storage.OutputDir = c.Output.Directory
	}
	// A known boolean theme parameter written as ${VAR} arrives as the
	// string "true" or "false"; give the theme the boolean it expects.
	for name, value := range c.Generator.Params {
		s, isString := value.(string)
		if !isString || knownParamTypes[strings.ToLower(name)] != "bool" {
			continue
		}
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			c.Generator.Params[name] = b
		}
	}
}

// resolvePaths makes every filesystem path in c absolute and clean,
// resolving relative ones against baseDir. Empty paths stay empty.
func resolvePaths(c *Config, baseDir string) {
	for _, p := range c.filesystemPaths() {
		*p = resolvePath(*p, baseDir)
	}
}

// filesystemPaths lists pointers to every field that holds a filesystem
// path, so resolution and validation agree on which fields those are.
func (c *Config) filesystemPaths() []*string {
	paths := []*string{
		&c.Output.Directory,
		&c.Daemon.Storage.OutputDir,
		&c.Daemon.Storage.RepoCacheDir,
		&c.Build.WorkspaceDir,
		&c.Ingress.Source.Path,
		&c.Ingress.Source.Kubeconfig,
		&c.Ingress.APIKeysFile,
		&c.Broker.CredentialsFile,
		&c.Broker.TLS.CAFile,
		&c.Broker.TLS.CertFile,
		&c.Broker.TLS.KeyFile,
	}
	for i := range c.Repositories {
		paths = append(paths, &c.Repositories[i].Auth.KeyPath, &c.Repositories[i].Auth.KnownHosts)
	}
	for i := range c.Forges {
		paths = append(paths, &c.Forges[i].Auth.KeyPath, &c.Forges[i].Auth.KnownHosts)
	}
	return paths
}

func resolvePath(p, baseDir string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(baseDir, p)
	}
	return filepath.Clean(p)
}

// EnvFiles returns the .env files that were read while loading, in load
// order, so the caller can log where values came from.
func (c *Config) EnvFiles() []string {
	return append([]string(nil), c.loadState.envFiles...)
}

// BaseDir is the directory relative paths were resolved against: the
// configuration file's directory, or the dir given to LoadBytes.
func (c *Config) BaseDir() string {
	return c.loadState.baseDir
}
