package discovery

import (
	"context"
	"fmt"
	"net/url"
)

// github speaks GitHub's REST API (v3, version 2022-11-28): GET
// /orgs/{org}/repos (or /users/{user}/repos), GET
// /repos/{owner}/{repo}/contents/{path}, GET and POST
// /repos/{owner}/{repo}/hooks. Pages of 100 follow the Link header.
type github struct {
	c   *client
	api string
}

func (g *github) list(ctx context.Context, owner string) ([]listedRepo, error) {
	o := url.PathEscape(owner)
	return listOwner(ctx, g.c, g.api+"/orgs/"+o+"/repos?type=all&per_page=100", g.api+"/users/"+o+"/repos?type=owner&per_page=100")
}

func (g *github) hasPath(ctx context.Context, r listedRepo, p string) (bool, error) {
	return contentsExist(ctx, g.c, g.api, r, p)
}

type githubHook struct {
	Config struct {
		URL string `json:"url"`
	} `json:"config"`
}

func (g *github) hookURLs(ctx context.Context, r listedRepo) ([]string, error) {
	hooks, err := listPages[githubHook](ctx, g.c, fmt.Sprintf("%s/repos/%s/hooks?per_page=100", g.api, escapePath(r.FullPath)))
	if err != nil {
		return nil, err
	}
	urls := make([]string, len(hooks))
	for i, h := range hooks {
		urls[i] = h.Config.URL
	}
	return urls, nil
}

func (g *github) addHook(ctx context.Context, r listedRepo, hookURL, secret string) error {
	body := map[string]any{
		"name": "web", "active": true, "events": []string{"push"},
		"config": map[string]string{"url": hookURL, "content_type": "json", "secret": secret, "insecure_ssl": "0"},
	}
	return g.c.postJSON(ctx, fmt.Sprintf("%s/repos/%s/hooks", g.api, escapePath(r.FullPath)), body, nil)
}
