package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestIngressAPIKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "keys")
	writeFile(t, file, "# comment\nfile-key-1\r\n\n\tfile-key-2\n")
	c := Config{Ingress: Ingress{APIKeys: []string{"inline", ""}, APIKeysFile: file}}
	keys, err := c.IngressAPIKeys()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"inline", "file-key-1", "file-key-2"}; !slices.Equal(keys, want) {
		t.Fatalf("keys = %q, want %q", keys, want)
	}
}

func TestIngressAPIKeysReReadsFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "keys")
	writeFile(t, file, "old\n")
	c := Config{Ingress: Ingress{APIKeysFile: file}}
	writeFile(t, file, "new\n")
	keys, err := c.IngressAPIKeys()
	if err != nil || !slices.Equal(keys, []string{"new"}) {
		t.Fatalf("keys = %q, err = %v; want the rotated key", keys, err)
	}
}

func TestIngressAPIKeysErrors(t *testing.T) {
	dir := t.TempDir()
	missing := Config{Ingress: Ingress{APIKeysFile: filepath.Join(dir, "absent")}}
	if _, err := missing.IngressAPIKeys(); err == nil || !strings.Contains(err.Error(), "ingress.api_keys_file") {
		t.Fatalf("error = %v", err)
	}
	file := filepath.Join(dir, "keys")
	writeFile(t, file, "ok\nbad SECRET-PART\n")
	bad := Config{Ingress: Ingress{APIKeysFile: file}}
	_, err := bad.IngressAPIKeys()
	if err == nil || !strings.Contains(err.Error(), "line 2") || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("error = %v, want line number without the key", err)
	}
}
