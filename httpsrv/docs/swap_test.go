package docs

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// swapLikeRender replaces public with staging exactly as the render stage
// does: two renames, then the old site is removed.
func swapLikeRender(t *testing.T, staging, public string) {
	old := public + ".old"
	if err := os.RemoveAll(old); err != nil {
		t.Error(err)
	}
	if err := os.Rename(public, old); err != nil {
		t.Error(err)
	}
	if err := os.Rename(staging, public); err != nil {
		t.Error(err)
	}
	if err := os.RemoveAll(old); err != nil {
		t.Error(err)
	}
}

// versionedPage is a page large enough that a read spans many writes.
func versionedPage(version string) string {
	return "<!DOCTYPE html><title>" + version + "</title>" + strings.Repeat("<p>"+version+" body text</p>", 8000)
}

func TestSwapByRenameServesWholeOldOrWholeNewPages(t *testing.T) {
	dir := t.TempDir()
	public := filepath.Join(dir, "public")
	pages := map[string]bool{versionedPage("version-A"): true, versionedPage("version-B"): true}
	writeSite(t, public, map[string]string{"index.html": versionedPage("version-A")})
	srv := startServer(t, public)

	const readers, swaps = 4, 30
	var done atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, readers)
	for i := 0; i < readers; i++ {
		wg.Add(1)
		encoding := ""
		if i%2 == 1 {
			encoding = "gzip"
		}
		go func() {
			defer wg.Done()
			client := &http.Client{} // transparently decompresses gzip
			for !done.Load() {
				req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
				if encoding == "" {
					req.Header.Set("Accept-Encoding", "identity")
				}
				resp, err := client.Do(req)
				if err != nil {
					errs <- err
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					errs <- err
					return
				}
				if resp.StatusCode != http.StatusOK || !pages[string(body)] {
					errs <- fmt.Errorf("read during swaps: status %d, %d bytes not one whole version", resp.StatusCode, len(body))
					return
				}
				reads.Add(1)
			}
		}()
	}

	last := "version-A"
	for i := 0; i < swaps; i++ {
		last = map[string]string{"version-A": "version-B", "version-B": "version-A"}[last]
		staging := filepath.Join(dir, fmt.Sprintf(".public-%d", i))
		writeSite(t, staging, map[string]string{"index.html": versionedPage(last)})
		swapLikeRender(t, staging, public)
	}
	done.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if reads.Load() == 0 {
		t.Fatal("no read completed during the swaps")
	}
	if r := get(t, srv.URL+"/"); r.body != versionedPage(last) {
		t.Fatalf("after the last swap the server does not serve %s", last)
	}
}
