package webhook

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// kindPullRequest is a pull (merge) request event: it may build or remove
// a preview (daemon.previews).
const kindPullRequest eventKind = 100

// Pull-request actions, as docweave names them whatever the forge.
const (
	// PullRequestOpen builds (or rebuilds) the preview at the head:
	// opened, reopened, new commits.
	PullRequestOpen = "open"
	// PullRequestClose removes the preview: closed or merged.
	PullRequestClose = "close"
)

// PullRequest is what a pull-request event asks of the previews.
type PullRequest struct {
	// Source is github, gitlab or forgejo; DeliveryID the forge's.
	Source, DeliveryID string
	// Action is PullRequestOpen or PullRequestClose.
	Action string
	// Repository is the configured repository the request targets.
	Repository string
	// Number is the request's number in its repository (GitLab's iid).
	Number int
	// HeadRef and HeadCommit are the request's source branch and its
	// head commit; HeadCloneURL where they are (the fork, for a fork).
	HeadRef, HeadCommit, HeadCloneURL string
	// Fork is set when the head is in another repository than the base.
	Fork bool
	// API is the forge's API base URL and Project the target project
	// (owner/name; GitLab: its numeric id): where a commit status goes.
	API, Project string
}

// PullRequestResult is the daemon's answer: the preview's id, or why the
// request is ignored.
type PullRequestResult struct {
	PreviewID string
	URL       string
	Ignored   string
}

// pullRequestEvent is a pull-request payload as a forge dialect reads it.
type pullRequestEvent struct {
	// action is open, close, or "" for actions that change no content
	// (edited, labeled, approved...).
	action     string
	rawAction  string
	number     int
	repository string   // the base repository's full name, for messages
	urls       []string // the base repository's URLs, to match
	headRef    string
	headCommit string
	headClone  string
	fork       bool
	api        string
	project    string
}

// previewedBody answers a pull-request event that built or removed a
// preview.
type previewedBody struct {
	Status     string `json:"status"`
	Action     string `json:"action"`
	PreviewID  string `json:"preview_id,omitempty"`
	URL        string `json:"url,omitempty"`
	Repository string `json:"repository"`
}

// pullRequest matches a pull-request event to a configured repository and
// hands it to the previews.
func (s *server) pullRequest(f forge, r *http.Request, payload []byte, event, delivery string) reply {
	if s.previews == nil {
		return ignored(fmt.Sprintf("%s event %q: previews are off (daemon.previews.enabled)", f.source, event))
	}
	pr, err := f.parsePullRequest(payload)
	if err != nil {
		return errorReply(http.StatusBadRequest, CodeInvalidPayload, fmt.Sprintf("%s %q payload: %v", f.source, event, err))
	}
	if pr.action == "" {
		return ignored(fmt.Sprintf("%s %s action %q changes no content; previews follow opened, updated, reopened, closed and merged requests", f.source, event, pr.rawAction))
	}
	repos := s.matcher().byURL(pr.urls)
	if len(repos) == 0 {
		return ignored(fmt.Sprintf("pull request to %s, which is no configured repository", pr.repository))
	}
	if pr.action == PullRequestOpen && (pr.headRef == "" || pr.headCommit == "") {
		return errorReply(http.StatusBadRequest, CodeInvalidPayload, fmt.Sprintf("%s %q payload: no head branch or commit", f.source, event))
	}
	req := PullRequest{Source: f.source, DeliveryID: delivery, Action: pr.action, Repository: repos[0].name, Number: pr.number,
		HeadRef: pr.headRef, HeadCommit: pr.headCommit, HeadCloneURL: pr.headClone, Fork: pr.fork, API: pr.api, Project: pr.project}
	res, err := s.previews(r.Context(), req)
	if err != nil {
		rep := errorReply(http.StatusServiceUnavailable, CodeTriggerFailed, "the preview could not be queued; retry the delivery later (the daemon log has the cause)")
		rep.err = fmt.Errorf("preview of %s #%d: %w", req.Repository, req.Number, err)
		return rep
	}
	if res.Ignored != "" {
		return ignored(res.Ignored)
	}
	return reply{status: http.StatusAccepted, outcome: outcomeAccepted, reason: "preview " + pr.action,
		body: previewedBody{Status: "accepted", Action: pr.action, PreviewID: res.PreviewID, URL: res.URL, Repository: req.Repository}}
}

// previewAction maps a forge's action names to docweave's: open (build),
// close (remove) or "" (nothing to do).
func previewAction(action string, open, close []string) string {
	a := strings.ToLower(action)
	for _, o := range open {
		if a == o {
			return PullRequestOpen
		}
	}
	for _, c := range close {
		if a == c {
			return PullRequestClose
		}
	}
	return ""
}

// apiBase is the origin of a web URL with an API path: the API of a
// GitLab (/api/v4) or Forgejo/Gitea (/api/v1) instance from its project's
// web address.
func apiBase(webURL, path string) string {
	u, err := url.Parse(webURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host + path
}

// PullRequestFunc is Options.PullRequests: it builds or removes a
// preview.
type PullRequestFunc func(ctx context.Context, pr PullRequest) (PullRequestResult, error)
