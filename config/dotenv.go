package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The dotenv reader is our own rather than gotenv (viper's) or godotenv:
// both expand $NAME inside values, and both quote the text they could not
// read in their errors, which would put a secret in a log
// (docs/configuration.md says more).

// Names of the dotenv files the loader reads, in the order they are loaded.
const (
	dotEnvFile      = ".env"
	dotEnvLocalFile = ".env.local"
)

// buildEnvironment assembles the variables ${NAME} references expand from.
// Files are loaded in this order, a later one winning on conflict:
//
//	<config dir>/.env, <working dir>/.env, <config dir>/.env.local, <working dir>/.env.local
//
// so any .env.local beats any .env, and for files of the same name the
// working directory (where the operator launched docweave) beats the
// configuration's directory. A variable set in the process environment wins
// over every file, so an operator can override a value at launch. It returns
// the environment and the files that existed and were read.
func buildEnvironment(configDir, workDir string, processEnv []string) (map[string]string, []string, error) {
	dirs := []string{configDir}
	if workDir != "" && filepath.Clean(workDir) != filepath.Clean(configDir) {
		dirs = append(dirs, workDir)
	}
	env := map[string]string{}
	var loaded []string
	for _, name := range []string{dotEnvFile, dotEnvLocalFile} {
		for _, dir := range dirs {
			file := filepath.Join(dir, name)
			vars, found, err := readDotEnv(file)
			if err != nil {
				return nil, nil, err
			}
			if !found {
				continue
			}
			loaded = append(loaded, file)
			for k, v := range vars {
				env[k] = v
			}
		}
	}
	for _, kv := range processEnv {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			env[k] = v
		}
	}
	return env, loaded, nil
}

// readDotEnv reads one dotenv file; a missing file is not an error.
func readDotEnv(file string) (map[string]string, bool, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", file, err)
	}
	vars, err := parseDotEnv(string(data))
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", file, err)
	}
	return vars, true, nil
}

// parseDotEnv parses dotenv text: KEY=VALUE lines, an optional "export "
// prefix, blank lines and # comments, unquoted values (a " #" starts a
// trailing comment), 'single-quoted' values taken literally, and
// "double-quoted" values with \n, \t, \r, \", \\ and \$ escapes. Values are
// not expanded. Errors give the line number, never the value.
func parseDotEnv(text string) (map[string]string, error) {
	vars := map[string]string{}
	for n, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		lineNo := n + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			line = strings.TrimSpace(rest)
		}
		key, raw, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: expected KEY=VALUE", lineNo)
		}
		key = strings.TrimSpace(key)
		if !validEnvName(key) {
			return nil, fmt.Errorf("line %d: invalid variable name; expected letters, digits and _ not starting with a digit", lineNo)
		}
		value, err := parseDotEnvValue(strings.TrimSpace(raw))
		if err != nil {
			return nil, fmt.Errorf("line %d (%s): %w", lineNo, key, err)
		}
		vars[key] = value
	}
	return vars, nil
}

// parseDotEnvValue decodes the part after "=" of one dotenv line.
func parseDotEnvValue(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	var value, rest string
	switch raw[0] {
	case '\'':
		end := strings.IndexByte(raw[1:], '\'')
		if end < 0 {
			return "", errors.New("unterminated single quote")
		}
		value, rest = raw[1:1+end], raw[2+end:]
	case '"':
		var b strings.Builder
		i := 1
		closed := false
		for ; i < len(raw); i++ {
			c := raw[i]
			if c == '"' {
				closed = true
				break
			}
			if c == '\\' && i+1 < len(raw) {
				i++
				switch raw[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case 'r':
					b.WriteByte('\r')
				default:
					b.WriteByte(raw[i])
				}
				continue
			}
			b.WriteByte(c)
		}
		if !closed {
			return "", errors.New("unterminated double quote")
		}
		value, rest = b.String(), raw[i+1:]
	default:
		value = raw
		if i := commentStart(raw); i >= 0 {
			value = raw[:i]
		}
		return strings.TrimSpace(value), nil
	}
	rest = strings.TrimSpace(rest)
	if rest != "" && !strings.HasPrefix(rest, "#") {
		return "", errors.New("unexpected text after the closing quote; expected nothing or a # comment")
	}
	return value, nil
}

// commentStart finds a " #" or "\t#" that begins a trailing comment in an
// unquoted value; a # inside a word (like a URL fragment) is kept.
func commentStart(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return i
		}
	}
	return -1
}
