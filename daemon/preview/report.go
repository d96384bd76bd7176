package preview

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/docweave/docweave/config"
)

// StatusContext names docweave's commit status among a commit's checks.
const StatusContext = "docweave/preview"

// ForgeReporter sets a commit status on a pull request's head: GitHub's
// and Forgejo's/Gitea's statuses API, GitLab's commit status API (a
// status without a pipeline). It authenticates with the repository's
// auth.token.
type ForgeReporter struct {
	Config *config.Config
	// Client sends the requests; nil is a client with a 20 s timeout.
	Client *http.Client
}

// Report sets the status of st on target.Commit.
func (f ForgeReporter) Report(ctx context.Context, target ReportTarget, st Status) error {
	repo, ok := f.Config.Repository(st.Repository)
	token := repo.Auth.Token
	if repo.Auth.Type == config.AuthBasic {
		token = repo.Auth.Password
	}
	if !ok || token == "" {
		return fmt.Errorf("repository %s has no auth.token to set a commit status with", st.Repository)
	}
	desc := st.Summary()
	if len(desc) > 140 {
		desc = desc[:137] + "..."
	}
	target.API = strings.TrimSuffix(target.API, "/")
	var endpoint string
	body := map[string]string{"state": forgeState(target.Forge, st.State), "description": desc}
	if strings.HasPrefix(st.URL, "http://") || strings.HasPrefix(st.URL, "https://") {
		body["target_url"] = st.URL
	}
	header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}}
	switch target.Forge {
	case "github":
		endpoint = target.API + "/repos/" + target.Project + "/statuses/" + url.PathEscape(target.Commit)
		body["context"] = StatusContext
		header.Set("Authorization", "Bearer "+token)
		header.Set("Accept", "application/vnd.github+json")
		header.Set("X-GitHub-Api-Version", "2022-11-28")
	case "forgejo":
		endpoint = target.API + "/repos/" + target.Project + "/statuses/" + url.PathEscape(target.Commit)
		body["context"] = StatusContext
		header.Set("Authorization", "token "+token)
	case "gitlab":
		endpoint = target.API + "/projects/" + url.PathEscape(target.Project) + "/statuses/" + url.PathEscape(target.Commit)
		body["name"] = StatusContext
		header.Set("PRIVATE-TOKEN", token)
	default:
		return fmt.Errorf("no commit status API for forge %q", target.Forge)
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("commit status: %w", err)
	}
	req.Header = header
	client := f.Client
	if client == nil {
		client = &http.Client{Timeout: 20 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("commit status on %s: %w", target.Forge, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("commit status on %s: %s answered %d: %s", target.Forge, req.URL.Redacted(), resp.StatusCode, strings.TrimSpace(string(msg)))
	}
	return nil
}

// forgeState is a preview state in a forge's words.
func forgeState(forge, state string) string {
	switch {
	case state == StateReady:
		return "success"
	case state == StateBuilding && forge == "gitlab":
		return "running"
	case state == StateBuilding:
		return "pending"
	case forge == "gitlab":
		return "failed"
	}
	return "error"
}
