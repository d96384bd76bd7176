package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestReadAPIKeysFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "keys")
	writeFile(t, file, "# comment\nfile-key-1\r\n\n\tfile-key-2\n")
	keys, err := ReadAPIKeysFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != (APIKey{Line: 2, Value: "file-key-1"}) || keys[1] != (APIKey{Line: 4, Value: "file-key-2"}) {
		t.Fatalf("keys = %+v", keys)
	}
}

func TestReadAPIKeysFileErrorsHideKeys(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadAPIKeysFile(filepath.Join(dir, "absent")); err == nil {
		t.Fatal("missing file accepted")
	}
	file := filepath.Join(dir, "keys")
	writeFile(t, file, "secret-one secret-two\n")
	_, err := ReadAPIKeysFile(file)
	if err == nil || !strings.Contains(err.Error(), "line 1") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("error = %v", err)
	}
}
