package webhook

import (
	"encoding/json"
	"net/http"
	"strings"
)

// GitLab headers.
const (
	HeaderGitLabEvent     = "X-Gitlab-Event"
	HeaderGitLabEventUUID = "X-Gitlab-Event-UUID"
)

// gitlabPush is the part of GitLab's push and tag push payloads docweave
// reads. Project URLs are the current fields; repository URLs are the
// older ones GitLab still sends.
type gitlabPush struct {
	ObjectKind  string `json:"object_kind"`
	EventName   string `json:"event_name"`
	Ref         string `json:"ref"`
	After       string `json:"after"`
	CheckoutSHA string `json:"checkout_sha"`
	Project     struct {
		PathWithNamespace string `json:"path_with_namespace"`
		WebURL            string `json:"web_url"`
		GitHTTPURL        string `json:"git_http_url"`
		GitSSHURL         string `json:"git_ssh_url"`
		DefaultBranch     string `json:"default_branch"`
	} `json:"project"`
	Repository struct {
		URL        string `json:"url"`
		Homepage   string `json:"homepage"`
		GitHTTPURL string `json:"git_http_url"`
		GitSSHURL  string `json:"git_ssh_url"`
	} `json:"repository"`
}

// gitlabForge is GitLab's dialect: the shared secret arrives verbatim in
// X-Gitlab-Token; X-Gitlab-Event is "Push Hook" or "Tag Push Hook" for
// pushes, and "System Hook" for instance-wide hooks whose payload says
// whether it is a push. GitLab has no ping event: its "Test" button sends
// a push.
func gitlabForge(token string) forge {
	return forge{
		source:          SourceGitLab,
		eventHeaders:    []string{HeaderGitLabEvent},
		deliveryHeaders: []string{HeaderGitLabEventUUID},
		authenticate: func(h http.Header, _ []byte) *reply {
			if token == "" {
				rep := unconfiguredRefusal(SourceGitLab, "daemon.webhooks.gitlab_token")
				return &rep
			}
			got, err := singleHeader(h, HeaderGitLabToken)
			if err != nil {
				rep := signatureRefusal(HeaderGitLabToken, "the secret token of the GitLab webhook", err)
				return &rep
			}
			if !equalTokens(got, token) {
				rep := errorReply(http.StatusUnauthorized, CodeInvalidSignature,
					"header "+HeaderGitLabToken+" is not the configured token (daemon.webhooks.gitlab_token)")
				return &rep
			}
			return nil
		},
		classify: func(event string, payload []byte) eventKind {
			switch strings.ToLower(event) {
			case "push hook", "tag push hook":
				return kindPush
			case "merge request hook":
				return kindPullRequest
			case "system hook":
				var p gitlabPush
				if json.Unmarshal(payload, &p) == nil && isGitLabPushKind(p.ObjectKind, p.EventName) {
					return kindPush
				}
			}
			return kindOther
		},
		parsePullRequest: parseGitLabMergeRequest,
		parsePush: func(payload []byte) (pushEvent, error) {
			var p gitlabPush
			if err := json.Unmarshal(payload, &p); err != nil {
				return pushEvent{}, err
			}
			commit := p.After
			if commit == "" || isZeroCommit(commit) {
				commit = p.CheckoutSHA
			}
			return pushEvent{
				repository:    p.Project.PathWithNamespace,
				ref:           p.Ref,
				commit:        commit,
				deleted:       isZeroCommit(p.After),
				defaultBranch: p.Project.DefaultBranch,
				urls: []string{p.Project.GitHTTPURL, p.Project.GitSSHURL, p.Project.WebURL,
					p.Repository.GitHTTPURL, p.Repository.GitSSHURL, p.Repository.URL, p.Repository.Homepage},
			}, nil
		},
	}
}

// isGitLabPushKind reports whether a system hook payload is a push.
func isGitLabPushKind(objectKind, eventName string) bool {
	for _, k := range []string{objectKind, eventName} {
		if k == "push" || k == "tag_push" {
			return true
		}
	}
	return false
}
