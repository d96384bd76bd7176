package webhook

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// previewRecorder is the PullRequests function of the tests.
type previewRecorder struct {
	mu    sync.Mutex
	calls []PullRequest
	res   PullRequestResult
	err   error
}

func (p *previewRecorder) pullRequest(_ context.Context, pr PullRequest) (PullRequestResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, pr)
	return p.res, p.err
}

func (p *previewRecorder) last(t *testing.T) PullRequest {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.calls) == 0 {
		t.Fatal("no pull request reached the previews")
	}
	return p.calls[len(p.calls)-1]
}

func (p *previewRecorder) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.calls)
}

func previewHarness(t *testing.T) (*harness, *previewRecorder) {
	rec := &previewRecorder{res: PullRequestResult{PreviewID: "hello-0123456789", URL: "/previews/hello-0123456789/"}}
	h := newHarness(t, func(o *Options) { o.PullRequests = rec.pullRequest })
	return h, rec
}

// Each forge's pull-request event, in its documented format and with its
// own signature, reaches the previews with the configured repository, the
// action, the head branch, commit and clone URL, whether it is a fork,
// and where its commit status goes; actions that change no content do
// not.
func TestPullRequestEventsReachThePreviews(t *testing.T) {
	h, rec := previewHarness(t)
	fixture := func(name string) []byte { return readFixture(t, filepath.Join("pullrequests", name)) }

	body := fixture("github_opened.json")
	r := h.post(t, PathGitHub, githubHeaders("pull_request", body), body)
	if r.status != http.StatusAccepted || r.body["preview_id"] != "hello-0123456789" || r.body["action"] != PullRequestOpen {
		t.Fatalf("GitHub opened: %d %s", r.status, r.raw)
	}
	got := rec.last(t)
	want := PullRequest{Source: SourceGitHub, DeliveryID: "72d3162e-cc78-11e3-81ab-4c9367dc0958", Action: PullRequestOpen, Repository: "hello", Number: 12,
		HeadRef: "lever-docs", HeadCommit: "aa11bb22cc33dd44ee55ff66aa77bb88cc99dd00", HeadCloneURL: "https://github.com/Codertocat/Hello-World.git",
		API: "https://api.github.com", Project: "Codertocat/Hello-World"}
	if got != want {
		t.Errorf("GitHub opened:\n got %+v\nwant %+v", got, want)
	}

	body = fixture("github_fork_synchronize.json")
	h.post(t, PathGitHub, githubHeaders("pull_request", body), body)
	if got := rec.last(t); !got.Fork || got.Action != PullRequestOpen || got.HeadCloneURL != "https://github.com/octo-reader/Hello-World.git" || got.Project != "Codertocat/Hello-World" || got.Number != 13 {
		t.Errorf("GitHub fork synchronize: %+v", got)
	}

	body = fixture("github_closed.json")
	h.post(t, PathGitHub, githubHeaders("pull_request", body), body)
	if got := rec.last(t); got.Action != PullRequestClose || got.Number != 12 {
		t.Errorf("GitHub closed: %+v", got)
	}

	n := rec.count()
	body = fixture("github_labeled.json")
	if r := h.post(t, PathGitHub, githubHeaders("pull_request", body), body); r.body["status"] != "ignored" || !strings.Contains(r.raw, "labeled") || rec.count() != n {
		t.Errorf("GitHub labeled: %s", r.raw)
	}

	body = fixture("gitlab_update.json")
	hdr := gitlabHeaders("Merge Request Hook")
	h.post(t, PathGitLab, hdr, body)
	want = PullRequest{Source: SourceGitLab, DeliveryID: hdr[HeaderGitLabEventUUID], Action: PullRequestOpen, Repository: "gl-handbook", Number: 57,
		HeadRef: "draft/glossary", HeadCommit: "c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0", HeadCloneURL: "https://gitlab.example.org/platform/docs/handbook.git",
		API: "https://gitlab.example.org/api/v4", Project: "812"}
	if got := rec.last(t); got != want {
		t.Errorf("GitLab update:\n got %+v\nwant %+v", got, want)
	}
	body = fixture("gitlab_merge.json")
	h.post(t, PathGitLab, gitlabHeaders("Merge Request Hook"), body)
	if got := rec.last(t); got.Action != PullRequestClose || got.Number != 57 {
		t.Errorf("GitLab merge: %+v", got)
	}

	body = fixture("forgejo_synchronized.json")
	h.post(t, PathForgejo, forgejoHeaders("pull_request", body), body)
	want = PullRequest{Source: SourceForgejo, DeliveryID: forgejoHeaders("pull_request", body)[HeaderForgejoDelivery], Action: PullRequestOpen, Repository: "fj-handbook", Number: 4,
		HeadRef: "setup-rewrite", HeadCommit: "f00dfeed0123456789abcdef0123456789abcdef", HeadCloneURL: "http://code.example.net/docs-team/handbook.git",
		API: "http://code.example.net/api/v1", Project: "docs-team/handbook"}
	if got := rec.last(t); got != want {
		t.Errorf("Forgejo synchronized:\n got %+v\nwant %+v", got, want)
	}
}

// A pull-request event is checked like a push: a wrong signature or token
// is refused before anything is read, and nothing reaches the previews.
func TestPullRequestEventsNeedTheSignature(t *testing.T) {
	h, rec := previewHarness(t)
	body := readFixture(t, filepath.Join("pullrequests", "github_opened.json"))
	hdr := githubHeaders("pull_request", body)
	hdr[HeaderGitHubSignature] = "sha256=" + hexHMAC("not-the-secret", body)
	if r := h.post(t, PathGitHub, hdr, body); r.status != http.StatusUnauthorized {
		t.Errorf("GitHub, wrong signature: %d", r.status)
	}
	gl := readFixture(t, filepath.Join("pullrequests", "gitlab_update.json"))
	glh := gitlabHeaders("Merge Request Hook")
	glh[HeaderGitLabToken] = "wrong"
	if r := h.post(t, PathGitLab, glh, gl); r.status != http.StatusUnauthorized {
		t.Errorf("GitLab, wrong token: %d", r.status)
	}
	fj := readFixture(t, filepath.Join("pullrequests", "forgejo_synchronized.json"))
	fjh := forgejoHeaders("pull_request", fj)
	fjh[HeaderForgejoSignature] = hexHMAC("other", fj)
	if r := h.post(t, PathForgejo, fjh, fj); r.status != http.StatusUnauthorized {
		t.Errorf("Forgejo, wrong signature: %d", r.status)
	}
	if rec.count() != 0 {
		t.Errorf("%d refused requests reached the previews", rec.count())
	}
}

// Without previews a pull request is acknowledged and ignored; a request
// to a repository docweave does not build is ignored; a failure of the
// previews is a 503, so the forge retries.
func TestPullRequestEventsIgnoredOrRetried(t *testing.T) {
	off := newHarness(t, nil)
	body := readFixture(t, filepath.Join("pullrequests", "github_opened.json"))
	if r := off.post(t, PathGitHub, githubHeaders("pull_request", body), body); r.body["status"] != "ignored" || !strings.Contains(r.raw, "previews are off") {
		t.Errorf("previews off: %s", r.raw)
	}
	h, rec := previewHarness(t)
	other := []byte(strings.ReplaceAll(string(body), "Codertocat/Hello-World", "someone/else"))
	if r := h.post(t, PathGitHub, githubHeaders("pull_request", other), other); r.body["status"] != "ignored" || rec.count() != 0 {
		t.Errorf("another repository: %s", r.raw)
	}
	rec.err = errors.New("queue full")
	if r := h.post(t, PathGitHub, githubHeaders("pull_request", body), body); r.status != http.StatusServiceUnavailable {
		t.Errorf("failing previews: %d %s", r.status, r.raw)
	}
	rec.err, rec.res = nil, PullRequestResult{Ignored: "comes from a fork"}
	if r := h.post(t, PathGitHub, githubHeaders("pull_request", body), body); r.body["status"] != "ignored" || !strings.Contains(r.raw, "fork") {
		t.Errorf("ignored by the daemon: %s", r.raw)
	}
}
