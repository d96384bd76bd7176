package webhook

import (
	"encoding/json"
	"net/http"
	"strings"
)

// GitHub headers.
const (
	HeaderGitHubEvent    = "X-GitHub-Event"
	HeaderGitHubDelivery = "X-GitHub-Delivery"
)

// githubPush is the part of GitHub's push payload docweave reads.
type githubPush struct {
	Ref        string `json:"ref"`
	After      string `json:"after"`
	Deleted    bool   `json:"deleted"`
	Repository struct {
		FullName      string `json:"full_name"`
		CloneURL      string `json:"clone_url"`
		SSHURL        string `json:"ssh_url"`
		HTMLURL       string `json:"html_url"`
		GitURL        string `json:"git_url"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// githubForge is GitHub's dialect: X-Hub-Signature-256 ("sha256=" + hex
// HMAC-SHA256 of the body), X-GitHub-Event push and ping. The legacy SHA-1
// X-Hub-Signature is not accepted.
func githubForge(secret string) forge {
	return forge{
		source:          SourceGitHub,
		eventHeaders:    []string{HeaderGitHubEvent},
		deliveryHeaders: []string{HeaderGitHubDelivery},
		authenticate: func(h http.Header, body []byte) *reply {
			if secret == "" {
				rep := unconfiguredRefusal(SourceGitHub, "daemon.webhooks.github_secret")
				return &rep
			}
			if err := checkHMACHeader(h, HeaderGitHubSignature, true, secret, body); err != nil {
				rep := signatureRefusal(HeaderGitHubSignature, "sha256=<64 hex digits of the HMAC-SHA256 of the body>", err)
				return &rep
			}
			return nil
		},
		classify: func(event string, _ []byte) eventKind {
			switch strings.ToLower(event) {
			case "push":
				return kindPush
			case "ping":
				return kindPing
			case "pull_request":
				return kindPullRequest
			}
			return kindOther
		},
		parsePullRequest: parseGitHubPullRequest,
		parsePush: func(payload []byte) (pushEvent, error) {
			var p githubPush
			if err := json.Unmarshal(payload, &p); err != nil {
				return pushEvent{}, err
			}
			r := p.Repository
			return pushEvent{
				repository:    r.FullName,
				ref:           p.Ref,
				commit:        p.After,
				deleted:       p.Deleted || isZeroCommit(p.After),
				defaultBranch: r.DefaultBranch,
				urls:          []string{r.CloneURL, r.SSHURL, r.HTMLURL, r.GitURL},
			}, nil
		},
	}
}
