package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseDotEnv(t *testing.T) {
	text := strings.Join([]string{
		"# a comment",
		"",
		"PLAIN=value",
		"export EXPORTED=yes",
		"SPACED = padded value  ",
		"COMMENTED=abc # trailing comment",
		"FRAGMENT=https://x.example/#anchor",
		`DOUBLE="a \"quoted\" value\nsecond line" # comment`,
		`SINGLE='literal \n $HOME # not a comment'`,
		"EMPTY=",
		`EMPTY_QUOTED=""`,
		"WITH_EQUALS=a=b=c",
		"exported_lower=1",
		"\r",
	}, "\r\n")
	got, err := parseDotEnv(text)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"PLAIN":          "value",
		"EXPORTED":       "yes",
		"SPACED":         "padded value",
		"COMMENTED":      "abc",
		"FRAGMENT":       "https://x.example/#anchor",
		"DOUBLE":         "a \"quoted\" value\nsecond line",
		"SINGLE":         `literal \n $HOME # not a comment`,
		"EMPTY":          "",
		"EMPTY_QUOTED":   "",
		"WITH_EQUALS":    "a=b=c",
		"exported_lower": "1",
	}
	if len(got) != len(want) {
		t.Errorf("parsed %d variables, want %d: %v", len(got), len(want), got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestParseDotEnvErrors(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"no equals sign", "A=1\nsupersecret", "line 2: expected KEY=VALUE"},
		{"bad name", "MY-VAR=supersecret", "line 1: invalid variable name"},
		{"unterminated double quote", `TOKEN="supersecret`, "line 1 (TOKEN): unterminated double quote"},
		{"unterminated single quote", `TOKEN='supersecret`, "line 1 (TOKEN): unterminated single quote"},
		{"text after quote", `TOKEN="a" supersecret`, "unexpected text after the closing quote"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseDotEnv(tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "supersecret") {
				t.Fatalf("error echoes the value: %v", err)
			}
		})
	}
}

func TestBuildEnvironmentPrecedence(t *testing.T) {
	configDir, workDir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(configDir, ".env"), "A=config-env\nB=config-env\nC=config-env\nD=config-env\nE=config-env\n")
	writeFile(t, filepath.Join(workDir, ".env"), "B=work-env\nC=work-env\nD=work-env\n")
	writeFile(t, filepath.Join(configDir, ".env.local"), "C=config-local\nD=config-local\n")
	writeFile(t, filepath.Join(workDir, ".env.local"), "D=work-local\n")

	env, loaded, err := buildEnvironment(configDir, workDir, []string{"E=process", "F=process", "G="})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"A": "config-env",   // only in the config directory's .env
		"B": "work-env",     // the working directory's .env beats the config directory's
		"C": "config-local", // any .env.local beats any .env
		"D": "work-local",   // the working directory's .env.local beats everything in files
		"E": "process",      // the process environment beats every file
		"F": "process",
		"G": "",
	}
	for k, v := range want {
		if got, ok := env[k]; !ok || got != v {
			t.Errorf("%s = %q (set %v), want %q", k, got, ok, v)
		}
	}
	wantLoaded := []string{
		filepath.Join(configDir, ".env"), filepath.Join(workDir, ".env"),
		filepath.Join(configDir, ".env.local"), filepath.Join(workDir, ".env.local"),
	}
	if !slices.Equal(loaded, wantLoaded) {
		t.Errorf("loaded = %v, want %v", loaded, wantLoaded)
	}
}

func TestBuildEnvironmentSameDirectoryReadOnce(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".env.local"), "X=1\n")
	_, loaded, err := buildEnvironment(dir, dir+string(filepath.Separator), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded) != 1 {
		t.Fatalf("loaded = %v, want the one file once", loaded)
	}
}

func TestBuildEnvironmentMissingFilesAreFine(t *testing.T) {
	env, loaded, err := buildEnvironment(t.TempDir(), t.TempDir(), []string{"ONLY=process"})
	if err != nil || len(loaded) != 0 || env["ONLY"] != "process" {
		t.Fatalf("env=%v loaded=%v err=%v", env, loaded, err)
	}
}

func TestBuildEnvironmentReportsBadFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".env"), "ok=1\nnot a pair\n")
	_, _, err := buildEnvironment(dir, dir, nil)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, ".env")+": line 2") {
		t.Fatalf("error = %v, want file and line", err)
	}
}

func TestBuildEnvironmentUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".env"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := buildEnvironment(dir, dir, nil); err == nil || !strings.Contains(err.Error(), "read ") {
		t.Fatalf("error = %v, want a read error for a .env that is a directory", err)
	}
}
