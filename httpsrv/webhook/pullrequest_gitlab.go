package webhook

import (
	"encoding/json"
	"strconv"
)

// gitlabProject is the part of a project object of GitLab's merge
// request payload docweave reads.
type gitlabProject struct {
	ID                int64  `json:"id"`
	PathWithNamespace string `json:"path_with_namespace"`
	WebURL            string `json:"web_url"`
	GitHTTPURL        string `json:"git_http_url"`
	GitSSHURL         string `json:"git_ssh_url"`
}

// gitlabMergeRequest is the part of GitLab's Merge Request Hook payload
// docweave reads.
type gitlabMergeRequest struct {
	ObjectKind       string        `json:"object_kind"`
	Project          gitlabProject `json:"project"`
	ObjectAttributes struct {
		IID             int           `json:"iid"`
		Action          string        `json:"action"`
		SourceBranch    string        `json:"source_branch"`
		SourceProjectID int64         `json:"source_project_id"`
		TargetProjectID int64         `json:"target_project_id"`
		Source          gitlabProject `json:"source"`
		Target          gitlabProject `json:"target"`
		LastCommit      struct {
			ID string `json:"id"`
		} `json:"last_commit"`
	} `json:"object_attributes"`
}

// parseGitLabMergeRequest reads GitLab's Merge Request Hook: open,
// update and reopen build; close and merge remove.
func parseGitLabMergeRequest(payload []byte) (pullRequestEvent, error) {
	var p gitlabMergeRequest
	if err := json.Unmarshal(payload, &p); err != nil {
		return pullRequestEvent{}, err
	}
	a := p.ObjectAttributes
	target := a.Target
	if target.WebURL == "" {
		target = p.Project
	}
	targetID := a.TargetProjectID
	if targetID == 0 {
		targetID = p.Project.ID
	}
	ev := pullRequestEvent{
		action: previewAction(a.Action, []string{"open", "update", "reopen"}, []string{"close", "merge"}), rawAction: a.Action,
		number: a.IID, repository: target.PathWithNamespace,
		urls:    []string{target.GitHTTPURL, target.GitSSHURL, target.WebURL, p.Project.GitHTTPURL, p.Project.GitSSHURL, p.Project.WebURL},
		headRef: a.SourceBranch, headCommit: a.LastCommit.ID, headClone: a.Source.GitHTTPURL,
		fork: a.SourceProjectID != 0 && a.SourceProjectID != targetID,
		api:  apiBase(target.WebURL, "/api/v4"), project: strconv.FormatInt(targetID, 10),
	}
	return ev, nil
}
