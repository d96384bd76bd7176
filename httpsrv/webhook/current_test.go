package webhook

import (
	"net/http"
	"sync"
	"testing"

	"github.com/docweave/docweave/config"
)

// TestPushesMatchRepositoriesDiscoveredLater: with CurrentRepositories, a
// push is matched against the repositories known at the time of the
// request — those forge discovery adds after the server started too.
func TestPushesMatchRepositoriesDiscoveredLater(t *testing.T) {
	var mu sync.Mutex
	current := []config.Repository{{Name: "local", URL: "/srv/git/local-docs", Branch: "main"}}
	h := newHarness(t, func(o *Options) {
		o.CurrentRepositories = func() []config.Repository {
			mu.Lock()
			defer mu.Unlock()
			return append([]config.Repository(nil), current...)
		}
	})
	push := masterPush(t)
	wantStatus(t, h.post(t, PathGitHub, githubHeaders("push", push), push), http.StatusAccepted)
	if n := len(h.rec.Calls()); n != 0 {
		t.Fatalf("a push for a repository nobody discovered yet triggered %d builds", n)
	}
	mu.Lock()
	current = append(current, config.Repository{Name: "hello-discovered", URL: "https://github.com/Codertocat/Hello-World.git"})
	mu.Unlock()
	wantStatus(t, h.post(t, PathGitHub, githubHeaders("push", push), push), http.StatusAccepted)
	calls := h.rec.Calls()
	if len(calls) != 1 || calls[0].Repositories[0] != "hello-discovered" {
		t.Fatalf("triggers %+v, want one for hello-discovered", calls)
	}
}
