package ingress

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

const oneIngress = `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: ns, resourceVersion: "1"}
spec:
  rules:
  - host: a.example.com
`

const twoIngresses = oneIngress + `---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: api, namespace: ns, resourceVersion: "2"}
spec:
  rules:
  - host: b.example.com
`

// replaceFile writes content the way editors and ConfigMap volumes do: to
// a new file renamed over the old one.
func replaceFile(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// eventually polls cond until it holds; the deadline only guards against a
// hung test and is not a performance assertion.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func newFileSource(t *testing.T, content string) (*FileSource, *Store) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cluster.yaml")
	if content != "" {
		replaceFile(t, path, content)
	}
	store := NewStore(nil)
	return &FileSource{Path: path, Interval: 5 * time.Millisecond, Store: store, Logger: zerolog.Nop()}, store
}

func TestFileSourceReloadsOnChange(t *testing.T) {
	src, store := newFileSource(t, oneIngress)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run returned %v after cancel", err)
		}
	}()

	eventually(t, "first load", store.Ready)
	first := store.Current()
	replaceFile(t, src.Path, twoIngresses)
	eventually(t, "reload after the file changed", func() bool { return store.Current() != first })
	if got := listedHosts(store.Current()); got != "a.example.com,b.example.com" {
		t.Fatalf("hosts after reload = %s", got)
	}

	// Rewriting the same content in place (new mtime, same bytes) is a
	// reload that changes nothing.
	gen := store.Generation()
	second := store.Current()
	if err := os.WriteFile(src.Path, []byte(twoIngresses), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(src.Path, later, later); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, src.Path, oneIngress)
	eventually(t, "reload of the third version", func() bool { return listedHosts(store.Current()) == "a.example.com" })
	if store.Generation() <= gen || second == store.Current() {
		t.Fatal("expected further reloads")
	}
	if store.Current().ETag != first.ETag {
		t.Fatal("the same content must give back the same ETag")
	}
}

func TestFileSourceKeepsLastGoodListingOnMalformedFile(t *testing.T) {
	src, store := newFileSource(t, oneIngress)
	if err := src.Load(); err != nil {
		t.Fatal(err)
	}
	good := store.Current()

	replaceFile(t, src.Path, "apiVersion: v1\nkind: [broken\n")
	err := src.Load()
	if err == nil || !strings.Contains(err.Error(), src.Path) || !strings.Contains(err.Error(), "document 1") {
		t.Fatalf("error %v should name the file and the document", err)
	}
	if store.Current() != good {
		t.Fatal("a malformed file replaced the listing")
	}
	if store.LastError() == nil {
		t.Fatal("the error was not recorded")
	}

	replaceFile(t, src.Path, twoIngresses)
	if err := src.Load(); err != nil {
		t.Fatal(err)
	}
	if store.LastError() != nil || listedHosts(store.Current()) != "a.example.com,b.example.com" {
		t.Fatalf("after fixing the file: error %v, hosts %s", store.LastError(), listedHosts(store.Current()))
	}
}

func TestFileSourceRunReportsLaterErrorsAndRecovers(t *testing.T) {
	src, store := newFileSource(t, oneIngress)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go src.Run(ctx)
	eventually(t, "first load", store.Ready)
	good := store.Current()

	replaceFile(t, src.Path, "kind: Ingress\napiVersion: networking.k8s.io/v1\nmetadata: {name: x}\nspec: {rules: 7}\n")
	eventually(t, "the malformed file to be reported", func() bool { return store.LastError() != nil })
	if store.Current() != good {
		t.Fatal("a malformed file replaced the listing")
	}
	if err := os.Remove(src.Path); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the missing file to be reported", func() bool {
		err := store.LastError()
		return err != nil && os.IsNotExist(unwrapAll(err))
	})
	replaceFile(t, src.Path, twoIngresses)
	eventually(t, "recovery", func() bool { return store.LastError() == nil && store.Current() != good })
}

func TestFileSourceFailsFastOnFirstLoad(t *testing.T) {
	src, _ := newFileSource(t, "")
	err := src.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "ingress source file "+src.Path) {
		t.Fatalf("Run on a missing file = %v", err)
	}
}

// listedHosts reads the hosts of a served body, comma-separated.
func listedHosts(s *Snapshot) string {
	if s == nil {
		return "<not ready>"
	}
	var list HostsList
	if err := json.Unmarshal(s.Body, &list); err != nil {
		return "<bad body: " + err.Error() + ">"
	}
	var hosts []string
	for _, h := range list.Hosts {
		hosts = append(hosts, h.Host)
	}
	return strings.Join(hosts, ",")
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}
