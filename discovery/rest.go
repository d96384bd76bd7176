package discovery

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
)

// restRepo is the repository object GitHub and Forgejo (Gitea) share:
// the same field names for what discovery reads. GitHub stamps the last
// push as pushed_at; Forgejo has updated_at (which a push moves).
type restRepo struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	FullName      string `json:"full_name"`
	CloneURL      string `json:"clone_url"`
	SSHURL        string `json:"ssh_url"`
	DefaultBranch string `json:"default_branch"`
	Archived      bool   `json:"archived"`
	Disabled      bool   `json:"disabled"`
	Fork          bool   `json:"fork"`
	Empty         bool   `json:"empty"`
	PushedAt      string `json:"pushed_at"`
	UpdatedAt     string `json:"updated_at"`
}

// listOwner lists an organisation's repositories, or a user's when there
// is no such organisation.
func listOwner(ctx context.Context, c *client, orgURL, userURL string) ([]listedRepo, error) {
	repos, err := listPages[restRepo](ctx, c, orgURL)
	if errors.Is(err, errNotFound) {
		repos, err = listPages[restRepo](ctx, c, userURL)
	}
	if err != nil {
		return nil, err
	}
	out := make([]listedRepo, 0, len(repos))
	for _, r := range repos {
		out = append(out, listedRepo{
			ID: strconv.FormatInt(r.ID, 10), FullPath: r.FullName, Name: r.Name,
			HTTPURL: r.CloneURL, SSHURL: r.SSHURL, Branch: r.DefaultBranch, UpdatedAt: firstNonEmpty(r.PushedAt, r.UpdatedAt),
			Archived: r.Archived || r.Disabled, Fork: r.Fork, Empty: r.Empty,
		})
	}
	return out, nil
}

// contentsExist asks GET /repos/{owner}/{repo}/contents/{path}?ref=…,
// which both answer with the entry (or directory listing), or 404.
func contentsExist(ctx context.Context, c *client, api string, r listedRepo, p string) (bool, error) {
	u := fmt.Sprintf("%s/repos/%s/contents/%s?ref=%s", api, escapePath(r.FullPath), escapePath(p), url.QueryEscape(r.Branch))
	_, err := c.getJSON(ctx, u, nil)
	if errors.Is(err, errNotFound) {
		return false, nil
	}
	return err == nil, err
}
