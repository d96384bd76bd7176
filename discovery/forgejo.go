package discovery

import (
	"context"
	"fmt"
	"net/url"
)

// forgejo speaks the Forgejo (and Gitea) API v1: GET /orgs/{org}/repos (or
// /users/{user}/repos), GET /repos/{owner}/{repo}/contents/{path}, GET and
// POST /repos/{owner}/{repo}/hooks. Pages of 50 (the servers' default
// maximum) follow the Link header.
type forgejo struct {
	c   *client
	api string
}

func (f *forgejo) list(ctx context.Context, owner string) ([]listedRepo, error) {
	o := url.PathEscape(owner)
	return listOwner(ctx, f.c, f.api+"/orgs/"+o+"/repos?limit=50", f.api+"/users/"+o+"/repos?limit=50")
}

func (f *forgejo) hasPath(ctx context.Context, r listedRepo, p string) (bool, error) {
	return contentsExist(ctx, f.c, f.api, r, p)
}

func (f *forgejo) hookURLs(ctx context.Context, r listedRepo) ([]string, error) {
	hooks, err := listPages[struct {
		Config map[string]string `json:"config"`
	}](ctx, f.c, fmt.Sprintf("%s/repos/%s/hooks?limit=50", f.api, escapePath(r.FullPath)))
	if err != nil {
		return nil, err
	}
	urls := make([]string, len(hooks))
	for i, h := range hooks {
		urls[i] = h.Config["url"]
	}
	return urls, nil
}

// addHook registers a webhook of type gitea, which Forgejo and Gitea both
// accept; Forgejo signs it with X-Forgejo-Signature and X-Gitea-Signature.
func (f *forgejo) addHook(ctx context.Context, r listedRepo, hookURL, secret string) error {
	body := map[string]any{
		"type": "gitea", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": hookURL, "content_type": "json", "secret": secret},
	}
	return f.c.postJSON(ctx, fmt.Sprintf("%s/repos/%s/hooks", f.api, escapePath(r.FullPath)), body, nil)
}
