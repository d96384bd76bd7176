package webhook

import (
	"encoding/json"
	"strings"
)

// githubRepo is the part of a repository object of GitHub's and
// Forgejo's/Gitea's payloads docweave reads.
type githubRepo struct {
	ID       int64  `json:"id"`
	FullName string `json:"full_name"`
	CloneURL string `json:"clone_url"`
	SSHURL   string `json:"ssh_url"`
	HTMLURL  string `json:"html_url"`
	GitURL   string `json:"git_url"`
	URL      string `json:"url"` // GitHub: the API URL, https://api.github.com/repos/owner/name
}

// githubPullRequest is the part of a pull_request payload (GitHub,
// Forgejo, Gitea: the same shape) docweave reads.
type githubPullRequest struct {
	Action      string `json:"action"`
	Number      int    `json:"number"`
	PullRequest struct {
		Number int  `json:"number"`
		Merged bool `json:"merged"`
		Head   struct {
			Ref  string      `json:"ref"`
			SHA  string      `json:"sha"`
			Repo *githubRepo `json:"repo"`
		} `json:"head"`
		Base struct {
			Ref  string      `json:"ref"`
			Repo *githubRepo `json:"repo"`
		} `json:"base"`
	} `json:"pull_request"`
	Repository githubRepo `json:"repository"`
}

// parse reads the payload with the forge's open and close actions.
func (p githubPullRequest) event(open, close []string) pullRequestEvent {
	r := p.Repository
	if p.PullRequest.Base.Repo != nil && p.PullRequest.Base.Repo.FullName != "" {
		r = *p.PullRequest.Base.Repo
	}
	ev := pullRequestEvent{
		action: previewAction(p.Action, open, close), rawAction: p.Action, number: p.Number,
		repository: r.FullName, urls: []string{r.CloneURL, r.SSHURL, r.HTMLURL, r.GitURL},
		headRef: p.PullRequest.Head.Ref, headCommit: p.PullRequest.Head.SHA, project: r.FullName,
	}
	if ev.number == 0 {
		ev.number = p.PullRequest.Number
	}
	if h := p.PullRequest.Head.Repo; h != nil {
		ev.headClone = h.CloneURL
		ev.fork = !strings.EqualFold(h.FullName, r.FullName)
	} else {
		ev.fork = true // the fork was deleted: nothing trusted to show
	}
	return ev
}

// parseGitHubPullRequest reads GitHub's pull_request payload: opened,
// synchronize (new commits) and reopened build; closed (merged or not)
// removes.
func parseGitHubPullRequest(payload []byte) (pullRequestEvent, error) {
	var p githubPullRequest
	if err := json.Unmarshal(payload, &p); err != nil {
		return pullRequestEvent{}, err
	}
	ev := p.event([]string{"opened", "synchronize", "reopened"}, []string{"closed"})
	repo := p.Repository
	if p.PullRequest.Base.Repo != nil && p.PullRequest.Base.Repo.URL != "" {
		repo = *p.PullRequest.Base.Repo
	}
	// The API URL of the repository ends in /repos/<full name>.
	if base, ok := strings.CutSuffix(repo.URL, "/repos/"+repo.FullName); ok && repo.FullName != "" {
		ev.api = base
	}
	return ev, nil
}

// parseForgejoPullRequest reads Forgejo's and Gitea's pull_request
// payload: opened, synchronized (new commits) and reopened build; closed
// removes. Their API is the instance's /api/v1.
func parseForgejoPullRequest(payload []byte) (pullRequestEvent, error) {
	var p githubPullRequest
	if err := json.Unmarshal(payload, &p); err != nil {
		return pullRequestEvent{}, err
	}
	ev := p.event([]string{"opened", "synchronized", "synchronize", "reopened"}, []string{"closed"})
	web := p.Repository.HTMLURL
	if p.PullRequest.Base.Repo != nil && p.PullRequest.Base.Repo.HTMLURL != "" {
		web = p.PullRequest.Base.Repo.HTMLURL
	}
	ev.api = apiBase(web, "/api/v1")
	return ev, nil
}
