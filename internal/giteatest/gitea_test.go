package giteatest

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

// The server is the release this package names, its token works, and a
// push lands on main where a clone sees it.
func TestServerRunsTheReleaseAndTakesPushes(t *testing.T) {
	g := New(t)
	resp, err := http.Get(g.URL + "/api/v1/version")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ Version string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.Version != Version {
		t.Fatalf("version %q (%v), want %s", v.Version, err, Version)
	}
	g.CreateOrg(t, "acme")
	url := g.CreateRepo(t, "acme", "api")
	if !strings.HasPrefix(url, g.URL+"/acme/api") {
		t.Fatalf("clone URL %s is not on %s", url, g.URL)
	}
	head := g.Push(t, "acme/api", map[string]string{"docs/index.md": "# API\n"}, "docs")
	dir := t.TempDir()
	gittest.Git(t, dir, "clone", "--quiet", url, "c")
	if got := gittest.Open(dir + "/c").Head(t); got != head {
		t.Fatalf("a fresh clone is at %s, want the pushed %s", got, head)
	}
	// Gitea configures git for itself; the machine's /dev/null stays a
	// device (a GIT_CONFIG_GLOBAL=/dev/null handed to Gitea replaced it
	// with a file).
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, fi.Mode(), err)
	}
}
