package ingress

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

func writeKeys(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestReadKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys")
	writeKeys(t, path, "# rotation 2025-03\n\n  first-key  \nsecond-key\n# retired: old-key\n")
	keys, err := ReadKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].Value != "first-key" || keys[1].Value != "second-key" {
		t.Fatalf("keys = %v", keys)
	}
	if !strings.Contains(keys[1].Origin, "line 4") {
		t.Fatalf("origin %q should name the line", keys[1].Origin)
	}
	if s := fmt.Sprint(keys); strings.Contains(s, "first-key") {
		t.Fatalf("printing keys reveals them: %s", s)
	}
	if _, err := ReadKeyFile(filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "api_keys_file") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestKeySourceLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys")
	writeKeys(t, path, "from-file\n")
	keys, err := KeySource{Static: KeysFromList("ingress.api_keys", []string{"from-config"}), File: path}.Load()
	if err != nil || len(keys) != 2 {
		t.Fatalf("keys %v, err %v", keys, err)
	}

	if _, err := (KeySource{}).Load(); err == nil || !strings.Contains(err.Error(), "ingress.api_keys or ingress.api_keys_file") {
		t.Fatalf("no keys at all: %v", err)
	}
	// The usual mistake: api_keys: ["${INGRESS_API_KEY}"] with the
	// variable unset expands to an empty key.
	_, err = KeySource{Static: KeysFromList("ingress.api_keys", []string{"ok-key", ""})}.Load()
	if err == nil || !strings.Contains(err.Error(), "ingress.api_keys[1]") || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty key: %v", err)
	}
}

func TestKeySourceWatchRotatesKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys")
	writeKeys(t, path, "old-key\n")
	src := KeySource{Static: KeysFromList("ingress.api_keys", []string{"static-key"}), File: path}
	keys, err := src.Load()
	if err != nil {
		t.Fatal(err)
	}
	ks, err := NewKeySet(keys)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	logs := &syncBuffer{}
	go func() { src.Watch(ctx, ks, 5*time.Millisecond, zerolog.New(logs)); close(done) }()
	defer func() { cancel(); <-done }()

	// Rotation: both keys active, then only the new one.
	writeKeys(t, path, "old-key\nnew-key\n")
	waitFor(t, "new key active", func() bool { return ks.Verify("new-key") })
	if !ks.Verify("old-key") || !ks.Verify("static-key") {
		t.Fatal("during rotation every listed key must stay active")
	}
	writeKeys(t, path, "new-key\n")
	waitFor(t, "old key revoked", func() bool { return !ks.Verify("old-key") })

	// A broken file keeps the keys that are active.
	writeKeys(t, path, "new-key\nnot a valid key\nprobe-key\n")
	waitFor(t, "the invalid file to be reported", func() bool { return strings.Contains(logs.String(), "API keys not reloaded") })
	if !ks.Verify("new-key") || !ks.Verify("static-key") || ks.Verify("probe-key") {
		t.Fatal("an invalid key file changed the active keys")
	}
	if strings.Contains(logs.String(), "not a valid key") {
		t.Fatalf("the log reveals a key: %s", logs.String())
	}

	// Emptying the file revokes its keys; static keys remain.
	writeKeys(t, path, "# all revoked\n")
	waitFor(t, "file keys revoked", func() bool { return !ks.Verify("new-key") })
	if !ks.Verify("static-key") || ks.Len() != 1 {
		t.Fatalf("static key lost or stray keys left: %d active", ks.Len())
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// syncBuffer is a log sink safe for a writer goroutine and a reading test.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
