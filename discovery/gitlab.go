package discovery

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
)

// gitlab speaks GitLab's REST API v4: GET /groups/{path}/projects with
// subgroups (or /users/{user}/projects), GET
// /projects/{id}/repository/tree?path=…, GET and POST /projects/{id}/hooks.
// Pages of 100 follow the Link header.
type gitlab struct {
	c   *client
	api string
}

type gitlabProject struct {
	ID                int64  `json:"id"`
	Path              string `json:"path"`
	PathWithNamespace string `json:"path_with_namespace"`
	HTTPURLToRepo     string `json:"http_url_to_repo"`
	SSHURLToRepo      string `json:"ssh_url_to_repo"`
	DefaultBranch     string `json:"default_branch"`
	Archived          bool   `json:"archived"`
	EmptyRepo         bool   `json:"empty_repo"`
	LastActivityAt    string `json:"last_activity_at"`
	ForkedFromProject *struct {
		ID int64 `json:"id"`
	} `json:"forked_from_project"`
}

func (g *gitlab) list(ctx context.Context, owner string) ([]listedRepo, error) {
	o := url.PathEscape(owner) // a group path's slashes become %2F
	projects, err := listPages[gitlabProject](ctx, g.c, g.api+"/groups/"+o+"/projects?include_subgroups=true&with_shared=false&per_page=100&order_by=id&sort=asc")
	if errors.Is(err, errNotFound) {
		projects, err = listPages[gitlabProject](ctx, g.c, g.api+"/users/"+o+"/projects?per_page=100&order_by=id&sort=asc")
	}
	if err != nil {
		return nil, err
	}
	out := make([]listedRepo, 0, len(projects))
	for _, p := range projects {
		out = append(out, listedRepo{
			ID: strconv.FormatInt(p.ID, 10), FullPath: p.PathWithNamespace, Name: p.Path,
			HTTPURL: p.HTTPURLToRepo, SSHURL: p.SSHURLToRepo, Branch: p.DefaultBranch, UpdatedAt: p.LastActivityAt,
			Archived: p.Archived, Fork: p.ForkedFromProject != nil, Empty: p.EmptyRepo || p.DefaultBranch == "",
		})
	}
	return out, nil
}

// hasPath asks for one entry of the tree at path: a directory that exists
// has one (Git stores no empty directories). Older GitLab answers an
// unknown path with an empty list, newer with 404.
func (g *gitlab) hasPath(ctx context.Context, r listedRepo, p string) (bool, error) {
	u := fmt.Sprintf("%s/projects/%s/repository/tree?path=%s&ref=%s&per_page=1", g.api, r.ID, url.QueryEscape(p), url.QueryEscape(r.Branch))
	var entries []struct {
		Name string `json:"name"`
	}
	_, err := g.c.getJSON(ctx, u, &entries)
	if errors.Is(err, errNotFound) {
		return false, nil
	}
	return err == nil && len(entries) > 0, err
}

func (g *gitlab) hookURLs(ctx context.Context, r listedRepo) ([]string, error) {
	hooks, err := listPages[struct {
		URL string `json:"url"`
	}](ctx, g.c, fmt.Sprintf("%s/projects/%s/hooks?per_page=100", g.api, r.ID))
	if err != nil {
		return nil, err
	}
	urls := make([]string, len(hooks))
	for i, h := range hooks {
		urls[i] = h.URL
	}
	return urls, nil
}

func (g *gitlab) addHook(ctx context.Context, r listedRepo, hookURL, secret string) error {
	body := map[string]any{
		"url": hookURL, "token": secret, "push_events": true, "tag_push_events": true, "enable_ssl_verification": true,
	}
	return g.c.postJSON(ctx, fmt.Sprintf("%s/projects/%s/hooks", g.api, r.ID), body, nil)
}
