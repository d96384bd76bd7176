package admin

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStatusShowsForgeFailures: a forge that could not be listed is shown
// as failed with its reason.
func TestStatusShowsForgeFailures(t *testing.T) {
	h := newHarness(t, "")
	listed := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	h.backend.snapshot = Snapshot{Version: "v1", Forges: []ForgeStatus{
		{Name: "github", Type: "github", OK: true, Repositories: 12, Listed: 40, Requests: 2, ListedAt: &listed},
		{Name: "gitlab-internal", Type: "gitlab", Error: "list platform: 503 Service Unavailable", Repositories: 3, Listed: 9, ListedAt: &listed},
	}}
	page := readBody(t, h.doRaw(t, http.MethodGet, "/status", ""))
	for _, want := range []string{
		"<h2>Forges</h2>", "github", "12 of 40", `s-success">listed`,
		"gitlab-internal", `s-failed">failed`, "list platform: 503 Service Unavailable", "2026-05-06 07:08:09 UTC",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("status page lacks %q", want)
		}
	}
}
