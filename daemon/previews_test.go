package daemon

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/daemon/preview"
	"github.com/docweave/docweave/internal/gittest"
)

// previewConfig is a daemon of two repositories, alpha and beta, where
// beta links to alpha's "extra" page and its "Setup" heading, with
// previews on.
func previewConfig(t *testing.T) (*config.Config, *gittest.Repo) {
	t.Helper()
	alpha := gittest.NewRepo(t, map[string]string{
		"docs/guide.md": "# Alpha guide\n\nThe first words of the guide.\n\n## Setup\n\nTurn the crank.\n",
		"docs/extra.md": "---\nid: extra-page\n---\n# Extra\n\nA page beta links to.\n",
	})
	beta := gittest.NewRepo(t, map[string]string{
		"docs/index.md": "# Beta\n\nRead [the extra page](/alpha/extra/).\n\nThen [set up](/alpha/guide/#setup).\n\nOr [by its id](xref:extra-page).\n",
	})
	cfg := daemonConfig(t, "")
	// Their original sites put each under a path, so beta's rooted links
	// lead into alpha.
	cfg.Repositories = []config.Repository{
		{Name: "alpha", URL: alpha.FileURL(), OriginalSite: config.OriginalSite{URL: "https://docs.example.com/", Paths: map[string]string{"/alpha/": "docs/"}}},
		{Name: "beta", URL: beta.FileURL(), OriginalSite: config.OriginalSite{URL: "https://docs.example.com/", Paths: map[string]string{"/beta/": "docs/"}}},
	}
	cfg.Build.WorkspaceDir = t.TempDir()
	cfg.Daemon.Previews.Enabled = true
	return cfg, alpha
}

// startPublished starts a daemon and waits for its start-up build.
func startPublished(t *testing.T, cfg *config.Config) Addresses {
	t.Helper()
	a := startDaemon(t, cfg).addrs
	eventually(t, "the start-up build to publish", func() bool { code, _ := get(t, "http://"+a.Docs+"/docs/beta/"); return code == 200 })
	eventually(t, "the start-up build to finish", func() bool {
		_, body := get(t, "http://"+a.Admin+"/status")
		return !strings.Contains(body, StateRunning)
	})
	return a
}

func request(t *testing.T, method, url, body string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, _ = copyBody(&b, resp)
	return resp.StatusCode, b.String(), resp.Header
}

// TestAPreviewShowsABranchBesideTheLiveSite: a branch of alpha that
// removes a page beta links to, renames a heading beta links to, adds a
// page and edits another is previewed through the admin API: the preview
// is the whole site under /previews/<id>/ (beta too), with alpha's
// branch, its links kept inside the preview, a banner and noindex; its
// status lists the pages added, changed and removed and beta's two links
// it breaks, with file and line; the live site is untouched; DELETE
// removes it and its files.
func TestAPreviewShowsABranchBesideTheLiveSite(t *testing.T) {
	cfg, alpha := previewConfig(t)
	a := startPublished(t, cfg)

	alpha.Git(t, "checkout", "-q", "-b", "change")
	alpha.Commit(t, map[string]string{
		"docs/guide.md": "# Alpha guide\n\nThe second words of the guide.\n\n## Installation\n\nTurn the crank.\n",
		"docs/new.md":   "# New page\n\nOnly on the branch.\n",
	}, "edit")
	head := alpha.Remove(t, []string{"docs/extra.md"}, "remove extra")
	alpha.Git(t, "checkout", "-q", "main")

	code, body, hdr := request(t, http.MethodPost, "http://"+a.Admin+"/api/previews", `{"repository":"alpha","ref":"change"}`)
	if code != http.StatusAccepted {
		t.Fatalf("POST /api/previews: %d %s", code, body)
	}
	var created struct{ ID, URL, StatusURL string }
	if err := json.Unmarshal([]byte(body), &struct {
		ID        *string `json:"id"`
		URL       *string `json:"url"`
		StatusURL *string `json:"status_url"`
	}{&created.ID, &created.URL, &created.StatusURL}); err != nil || created.ID == "" || hdr.Get("Location") != created.StatusURL {
		t.Fatalf("POST /api/previews answered %s (Location %q)", body, hdr.Get("Location"))
	}
	if created.URL != "/previews/"+created.ID+"/" || created.StatusURL != "/api/previews/"+created.ID {
		t.Fatalf("preview URLs: %+v", created)
	}
	var st preview.Status
	eventually(t, "the preview to be built", func() bool {
		_, body := get(t, "http://"+a.Admin+created.StatusURL)
		_ = json.Unmarshal([]byte(body), &st)
		return st.State != preview.StateBuilding
	})
	if st.State != preview.StateReady || st.Commit != head {
		t.Fatalf("preview: state %s, commit %s (want %s), error %q", st.State, st.Commit, head, st.Error)
	}
	ch := st.Changes
	if ch == nil || !contains(ch.Added, "/docs/alpha/new/") || !contains(ch.Removed, "/docs/alpha/extra/") || !contains(ch.Changed, "/docs/alpha/guide/") {
		t.Fatalf("changes: %+v", ch)
	}
	for _, list := range [][]string{ch.Added, ch.Removed, ch.Changed} {
		for _, u := range list {
			if strings.HasPrefix(u, "/docs/beta/") {
				t.Errorf("beta's page %s is listed as changed; only alpha changed", u)
			}
		}
	}
	broken := map[string]preview.BrokenLink{}
	for _, b := range st.LinksBroken {
		broken[b.Link] = b
	}
	if b, ok := broken["/alpha/extra/"]; !ok || b.Repository != "beta" || b.File != "docs/index.md" || b.Line != 3 {
		t.Errorf("the link to the removed page: %+v (all: %+v)", b, st.LinksBroken)
	}
	if b, ok := broken["xref:extra-page"]; !ok || b.Repository != "beta" || b.Line != 7 {
		t.Errorf("the link by id to the removed page: %+v (all: %+v)", b, st.LinksBroken)
	}
	if b, ok := broken["/alpha/guide/#setup"]; !ok || b.Repository != "beta" || b.Line != 5 || !strings.Contains(b.Reason, `"setup"`) {
		t.Errorf("the link to the renamed heading: %+v (all: %+v)", b, st.LinksBroken)
	}

	// Served under /previews/<id>/: the whole site, links inside it.
	base := "http://" + a.Docs + created.URL
	code, page, hdr := request(t, http.MethodGet, base+"docs/alpha/new/", "")
	if code != 200 || !strings.Contains(page, "Only on the branch.") {
		t.Fatalf("the preview's new page: %d", code)
	}
	if hdr.Get("X-Robots-Tag") == "" || !strings.Contains(hdr.Get("X-Robots-Tag"), "noindex") {
		t.Errorf("X-Robots-Tag = %q", hdr.Get("X-Robots-Tag"))
	}
	for _, want := range []string{`class="dw-preview-banner"`, ">alpha at <code", ">change</code>", head[:12], `href="/previews/` + created.ID + `/docs/`} {
		if !strings.Contains(page, want) {
			t.Errorf("the preview's page lacks %q", want)
		}
	}
	if strings.Contains(page, `href="/docs/`) {
		t.Error("the preview's page links out of the preview (href=\"/docs/…\")")
	}
	if code, page := get(t, base+"docs/beta/"); code != 200 || !strings.Contains(page, "dw-preview-banner") {
		t.Errorf("beta in the preview: %d", code)
	}
	if code, _ := get(t, base+"docs/alpha/extra/"); code != 404 {
		t.Errorf("the removed page in the preview: %d, want 404", code)
	}
	// The live site is untouched.
	if code, _ := get(t, "http://"+a.Docs+"/docs/alpha/new/"); code != 404 {
		t.Errorf("the live site serves the branch's page: %d", code)
	}
	if code, page := get(t, "http://"+a.Docs+"/docs/alpha/guide/"); code != 200 || !strings.Contains(page, "The first words") || strings.Contains(page, "dw-preview-banner") {
		t.Errorf("the live guide changed: %d", code)
	}

	// Listed, then deleted with its files.
	if _, body := get(t, "http://"+a.Admin+"/api/previews"); !strings.Contains(body, created.ID) {
		t.Errorf("GET /api/previews does not list the preview: %s", body)
	}
	if code, body, _ := request(t, http.MethodDelete, "http://"+a.Admin+created.StatusURL, ""); code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", code, body)
	}
	if code, _ := get(t, "http://"+a.Admin+created.StatusURL); code != 404 {
		t.Errorf("status after DELETE: %d", code)
	}
	if code, _ := get(t, base+"docs/alpha/new/"); code != 404 {
		t.Errorf("the deleted preview is served: %d", code)
	}
	if _, err := os.Stat(filepath.Join(previewsDir(cfg), created.ID)); !os.IsNotExist(err) {
		t.Errorf("the deleted preview's directory is still there: %v", err)
	}

	// A branch that is not there fails, saying so; the live site stays.
	code, body, _ = request(t, http.MethodPost, "http://"+a.Admin+"/api/previews", `{"repository":"alpha","ref":"no-such-branch"}`)
	if code != http.StatusAccepted {
		t.Fatalf("POST a missing branch: %d %s", code, body)
	}
	_ = json.Unmarshal([]byte(body), &struct {
		StatusURL *string `json:"status_url"`
	}{&created.StatusURL})
	eventually(t, "the missing branch's preview to fail", func() bool {
		_, body := get(t, "http://"+a.Admin+created.StatusURL)
		_ = json.Unmarshal([]byte(body), &st)
		return st.State != preview.StateBuilding
	})
	if st.State != preview.StateFailed || !strings.Contains(st.Error, "no-such-branch") {
		t.Errorf("a missing branch: state %s, error %q", st.State, st.Error)
	}
	if code, body, _ := request(t, http.MethodPost, "http://"+a.Admin+"/api/previews", `{"repository":"gamma","ref":"main"}`); code != http.StatusBadRequest || !strings.Contains(body, "preview_refused") {
		t.Errorf("an unknown repository: %d %s", code, body)
	}
}

func copyBody(b *strings.Builder, resp *http.Response) (int64, error) { return io.Copy(b, resp.Body) }

// pullRequestPayload is a GitHub pull_request event of alpha's request
// #7 from branch ref at commit sha.
// A fork's clone URL is forkURL.
func pullRequestPayload(action, baseURL, ref, sha, forkURL string) []byte {
	head := map[string]any{"full_name": "org/alpha", "clone_url": baseURL}
	if forkURL != "" {
		head = map[string]any{"full_name": "reader/alpha", "clone_url": forkURL}
	}
	base := map[string]any{"full_name": "org/alpha", "clone_url": baseURL, "url": "https://api.forge.invalid/repos/org/alpha"}
	body, _ := json.Marshal(map[string]any{
		"action": action, "number": 7,
		"pull_request": map[string]any{"number": 7, "head": map[string]any{"ref": ref, "sha": sha, "repo": head}, "base": map[string]any{"ref": "main", "repo": base}},
		"repository":   base,
	})
	return body
}

// TestAPullRequestIsPreviewedUntilItCloses: a signed GitHub pull_request
// "opened" builds the preview of its head; "closed" removes it; a request
// from a fork is ignored while daemon.previews.forks is off.
func TestAPullRequestIsPreviewedUntilItCloses(t *testing.T) {
	cfg, alpha := previewConfig(t)
	a := startPublished(t, cfg)
	alpha.Git(t, "checkout", "-q", "-b", "pr")
	head := alpha.Commit(t, map[string]string{"docs/guide.md": "# Alpha guide\n\nAs the pull request has it.\n"}, "edit")
	alpha.Git(t, "checkout", "-q", "main")

	send := func(action, forkURL string) (int, string) {
		return sendPullRequest(t, a.Webhook, pullRequestPayload(action, alpha.FileURL(), "pr", head, forkURL))
	}
	if code, body := send("opened", "https://forge.invalid/reader/alpha.git"); code != http.StatusAccepted || !strings.Contains(body, "forks is off") {
		t.Fatalf("a fork's request: %d %s", code, body)
	}
	code, body := send("opened", "")
	var res struct {
		PreviewID string `json:"preview_id"`
		URL       string `json:"url"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil || code != http.StatusAccepted || res.PreviewID == "" {
		t.Fatalf("opened: %d %s", code, body)
	}
	var st preview.Status
	eventually(t, "the pull request's preview", func() bool {
		_, body := get(t, "http://"+a.Admin+"/api/previews/"+res.PreviewID)
		_ = json.Unmarshal([]byte(body), &st)
		return st.State != preview.StateBuilding
	})
	if st.State != preview.StateReady || st.Commit != head || st.Title != "GitHub pull request #7" {
		t.Fatalf("preview: %+v", st)
	}
	if _, page := get(t, "http://"+a.Docs+res.URL+"docs/alpha/guide/"); !strings.Contains(page, "As the pull request has it.") || !strings.Contains(page, "GitHub pull request #7") {
		t.Error("the preview does not show the request's head with its banner")
	}
	if code, body := send("closed", ""); code != http.StatusAccepted {
		t.Fatalf("closed: %d %s", code, body)
	}
	if code, _ := get(t, "http://"+a.Admin+"/api/previews/"+res.PreviewID); code != http.StatusNotFound {
		t.Errorf("the closed request's preview is still there: %d", code)
	}
}

// sendPullRequest posts a signed GitHub pull_request event.
func sendPullRequest(t *testing.T, webhookAddr string, body []byte) (int, string) {
	t.Helper()
	return postGitHub(t, "http://"+webhookAddr+"/webhooks/github", "pull_request", body, githubSecret)
}

// TestAForkIsPreviewedAsUntrusted: with daemon.previews.forks, a request
// from a fork is built from the fork's clone URL (served over HTTP here),
// as trusted: false: its raw HTML is sanitized, its banner says so.
func TestAForkIsPreviewedAsUntrusted(t *testing.T) {
	cfg, alpha := previewConfig(t)
	cfg.Daemon.Previews.Forks = true
	a := startPublished(t, cfg)
	fork := gittest.NewRepo(t, map[string]string{
		"docs/guide.md": "# Alpha guide\n\nWritten in a fork. <b onclick=\"steal()\">Bold</b>\n\n<script>steal()</script>\n",
	})
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	forkURL := srv.Add(t, "reader/alpha", fork)
	head := fork.Head(t)
	code, body := sendPullRequest(t, a.Webhook, pullRequestPayload("opened", alpha.FileURL(), "main", head, forkURL))
	var res struct {
		PreviewID string `json:"preview_id"`
		URL       string `json:"url"`
	}
	if err := json.Unmarshal([]byte(body), &res); err != nil || code != http.StatusAccepted || res.PreviewID == "" {
		t.Fatalf("a fork's request: %d %s", code, body)
	}
	var st preview.Status
	eventually(t, "the fork's preview", func() bool {
		_, body := get(t, "http://"+a.Admin+"/api/previews/"+res.PreviewID)
		_ = json.Unmarshal([]byte(body), &st)
		return st.State != preview.StateBuilding
	})
	if st.State != preview.StateReady || !st.Untrusted || st.Commit != head {
		t.Fatalf("the fork's preview: %+v", st)
	}
	_, page := get(t, "http://"+a.Docs+res.URL+"docs/alpha/guide/")
	if !strings.Contains(page, "Written in a fork.") || !strings.Contains(page, "from a fork") {
		t.Fatal("the preview does not show the fork's page with its banner")
	}
	if strings.Contains(page, "steal()") {
		t.Error("the fork's raw HTML reached the preview unsanitized")
	}
}
