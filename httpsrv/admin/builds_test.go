package admin

import (
	"net/http"
	"testing"
	"time"

	"github.com/docweave/docweave/report"
)

func TestBuildStatusFollowsTheBuild(t *testing.T) {
	h := newHarness(t, "tok")
	trig := decodeJSON[TriggerResponse](t, h.do(t, http.MethodPost, "/api/build/trigger", ""))

	resp := h.do(t, http.MethodGet, trig.StatusURL, "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d, want 200", resp.StatusCode)
	}
	queued := decodeJSON[BuildStatus](t, resp)
	if queued.ID != trig.BuildID || queued.State != StateQueued || queued.Report != nil || queued.FinishedAt != nil {
		t.Fatalf("queued build = %+v", queued)
	}

	finished := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h.backend.Finish(trig.BuildID, report.Report{BuildID: trig.BuildID, Outcome: report.OutcomePartial,
		FinishedAt: finished, FailedRepositories: 1, RenderedPages: 12,
		Issues: []report.Issue{{Code: report.CodeCloneAuth, Repository: "private", Message: "authentication failed"}}})

	done := decodeJSON[BuildStatus](t, h.do(t, http.MethodGet, trig.StatusURL, ""))
	if done.State != StatePartial || done.FinishedAt == nil || !done.FinishedAt.Equal(finished) {
		t.Fatalf("finished build = %+v", done)
	}
	if done.Report == nil || done.Report.RenderedPages != 12 || len(done.Report.Issues) != 1 ||
		done.Report.Issues[0].Code != report.CodeCloneAuth {
		t.Fatalf("report not carried: %+v", done.Report)
	}
}

func TestBuildStatusUnknownID(t *testing.T) {
	h := newHarness(t, "")
	wantError(t, h.do(t, http.MethodGet, "/api/builds/does-not-exist", ""), http.StatusNotFound, codeBuildNotFound)
	// No ID at all is no endpoint.
	wantError(t, h.do(t, http.MethodGet, "/api/builds/", ""), http.StatusNotFound, codeNotFound)
}

func TestBuildStatusAllowsOnlyReads(t *testing.T) {
	h := newHarness(t, "")
	resp := h.do(t, http.MethodDelete, "/api/builds/b-1", "")
	wantError(t, resp, http.StatusMethodNotAllowed, codeMethodNotAllowed)
	if got := resp.Header.Get("Allow"); got != "GET, HEAD" {
		t.Fatalf("Allow = %q, want \"GET, HEAD\"", got)
	}
}

func TestBuildStatusURLRoundTripsUnusualIDs(t *testing.T) {
	h := newHarness(t, "")
	const id = "2026/01 x"
	h.backend.builds[id] = &BuildStatus{ID: id, State: StateRunning}
	h.backend.order = append(h.backend.order, id)
	got := decodeJSON[BuildStatus](t, h.do(t, http.MethodGet, "/api/builds/2026%2F01%20x", ""))
	if got.ID != id {
		t.Fatalf("ID = %q, want %q", got.ID, id)
	}
}
