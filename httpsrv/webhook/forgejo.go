package webhook

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Forgejo and Gitea headers. Forgejo sends both families; Gitea only its
// own.
const (
	HeaderForgejoEvent    = "X-Forgejo-Event"
	HeaderForgejoDelivery = "X-Forgejo-Delivery"
	HeaderGiteaEvent      = "X-Gitea-Event"
	HeaderGiteaDelivery   = "X-Gitea-Delivery"
)

// forgejoPush is the part of the Forgejo/Gitea push payload docweave reads.
type forgejoPush struct {
	Ref        string `json:"ref"`
	After      string `json:"after"`
	Repository struct {
		FullName      string `json:"full_name"`
		CloneURL      string `json:"clone_url"`
		SSHURL        string `json:"ssh_url"`
		HTMLURL       string `json:"html_url"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// forgejoForge is the Forgejo/Gitea dialect: a bare hex HMAC-SHA256 of the
// body in X-Forgejo-Signature or, from Gitea, X-Gitea-Signature. When the
// Forgejo header is present it alone is checked, so a wrong Forgejo
// signature is not rescued by a second header.
func forgejoForge(secret string) forge {
	return forge{
		source:          SourceForgejo,
		eventHeaders:    []string{HeaderForgejoEvent, HeaderGiteaEvent},
		deliveryHeaders: []string{HeaderForgejoDelivery, HeaderGiteaDelivery},
		authenticate: func(h http.Header, body []byte) *reply {
			if secret == "" {
				rep := unconfiguredRefusal(SourceForgejo, "daemon.webhooks.forgejo_secret")
				return &rep
			}
			header := HeaderForgejoSignature
			if len(h.Values(HeaderForgejoSignature)) == 0 && len(h.Values(HeaderGiteaSignature)) > 0 {
				header = HeaderGiteaSignature
			}
			if err := checkHMACHeader(h, header, false, secret, body); err != nil {
				rep := signatureRefusal(header, "64 hex digits of the HMAC-SHA256 of the body", err)
				if err == errSignatureMissing {
					rep = signatureRefusal(HeaderForgejoSignature+" (or "+HeaderGiteaSignature+")", "", err)
				}
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
			case "pull_request", "pull_request_sync":
				return kindPullRequest
			}
			return kindOther
		},
		parsePullRequest: parseForgejoPullRequest,
		parsePush: func(payload []byte) (pushEvent, error) {
			var p forgejoPush
			if err := json.Unmarshal(payload, &p); err != nil {
				return pushEvent{}, err
			}
			r := p.Repository
			return pushEvent{
				repository:    r.FullName,
				ref:           p.Ref,
				commit:        p.After,
				deleted:       isZeroCommit(p.After),
				defaultBranch: r.DefaultBranch,
				urls:          []string{r.CloneURL, r.SSHURL, r.HTMLURL},
			}, nil
		},
	}
}
