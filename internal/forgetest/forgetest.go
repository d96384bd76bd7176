// Package forgetest serves the parts of the GitHub, GitLab and Forgejo
// APIs that forge discovery uses, on 127.0.0.1 and a random port, for
// tests and benchmarks, in each forge's documented format (a real Gitea,
// for the Forgejo API, is internal/giteatest; GitHub and GitLab cannot run
// here): the repository objects start from the examples of the
// public API documentation (testdata/*.json), and the servers page with
// Link headers, send each forge's rate-limit headers, refuse wrong tokens
// the way each forge does, and record the webhooks registered.
package forgetest

import (
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

//go:embed testdata/*.json
var fixtures embed.FS

// Forge types.
const (
	GitHub  = "github"
	GitLab  = "gitlab"
	Forgejo = "forgejo"
)

// Repo is one repository the server lists.
type Repo struct {
	// Owner is the organisation or user (GitHub, Forgejo) or the group
	// path (GitLab, may contain slashes); Name the repository's name.
	Owner, Name string
	// Branch is the default branch (default main).
	Branch string
	// Paths are the directories that exist in it (docs, site/content).
	Paths []string
	// CloneURL and SSHURL are where it is cloned from (a gittest server).
	CloneURL, SSHURL string
	Archived, Fork   bool
	// Pushed is the time of the last push (default: when added).
	Pushed time.Time
	id     int64
}

// FullPath is owner/name.
func (r Repo) FullPath() string { return r.Owner + "/" + r.Name }

// Hook is a webhook registered through the API.
type Hook struct {
	URL, Secret string
	Events      []string
}

// Options shape a server.
type Options struct {
	// Token, when set, is required (in each forge's header) on every
	// request; without one, answers are the forge's 401.
	Token string
	// RateLimit, when set, is the number of requests per RateWindow
	// (default an hour); past it the server answers as the forge does
	// when a rate limit is exhausted.
	RateLimit  int
	RateWindow time.Duration
	// Users are owners served under /users/… rather than /orgs/… (GitLab:
	// /users/…/projects instead of /groups/…).
	Users []string
	// Latency delays every answer, as the round trip to a forge on the
	// internet would (requests in flight are delayed side by side).
	Latency time.Duration
}

// Server is one fake forge.
type Server struct {
	Type string
	opts Options
	srv  *httptest.Server
	tmpl map[string]any

	mu          sync.Mutex
	repos       []*Repo
	hooks       map[string][]Hook
	requests    int
	failListing int // answer the next listings with 503
	windowStart time.Time
	used        int
	nextID      int64
}

// New starts a server of the given type; t.Cleanup closes it.
func New(t testing.TB, typ string, opts Options) *Server {
	t.Helper()
	name := map[string]string{GitHub: "github-repository.json", GitLab: "gitlab-project.json", Forgejo: "forgejo-repository.json"}[typ]
	if name == "" {
		t.Fatalf("forgetest: unknown forge type %q", typ)
	}
	data, err := fixtures.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Type: typ, opts: opts, hooks: map[string][]Hook{}, nextID: 1000, windowStart: time.Now()}
	if err := json.Unmarshal(data, &s.tmpl); err != nil {
		t.Fatalf("forgetest: fixture %s: %v", name, err)
	}
	if s.opts.RateWindow == 0 {
		s.opts.RateWindow = time.Hour
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// URL is what forges[].base_url names: the API root for GitHub, the
// instance root for GitLab and Forgejo.
func (s *Server) URL() string { return s.srv.URL }

// Add lists a repository from now on.
func (s *Server) Add(r Repo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Branch == "" {
		r.Branch = "main"
	}
	if r.Pushed.IsZero() {
		r.Pushed = time.Now().UTC().Truncate(time.Second)
	}
	s.nextID++
	r.id = s.nextID
	s.repos = append(s.repos, &r)
}

// Remove stops listing a repository.
func (s *Server) Remove(fullPath string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repos = slices.DeleteFunc(s.repos, func(r *Repo) bool { return r.FullPath() == fullPath })
}

// Push records a push to a repository: its stamp moves and its paths
// become paths.
func (s *Server) Push(fullPath string, paths []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.repos {
		if r.FullPath() == fullPath {
			r.Paths = paths
			r.Pushed = r.Pushed.Add(time.Minute)
		}
	}
}

// FailListings makes the next n listing requests answer 503.
func (s *Server) FailListings(n int) {
	s.mu.Lock()
	s.failListing = n
	s.mu.Unlock()
}

// Requests is how many requests the server received.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Hooks are the webhooks registered on a repository.
func (s *Server) Hooks(fullPath string) []Hook {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.hooks[fullPath])
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.opts.Latency > 0 {
		time.Sleep(s.opts.Latency)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	if !s.authorized(r) {
		s.unauthorized(w)
		return
	}
	if !s.rate(w) {
		return
	}
	path := r.URL.EscapedPath()
	switch s.Type {
	case GitLab:
		path = strings.TrimPrefix(path, "/api/v4")
	case Forgejo:
		path = strings.TrimPrefix(path, "/api/v1")
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i, p := range parts {
		parts[i], _ = url.PathUnescape(p)
	}
	switch {
	case len(parts) >= 3 && (parts[0] == "orgs" || parts[0] == "users" || parts[0] == "groups") &&
		(parts[2] == "repos" || parts[2] == "projects"):
		s.list(w, r, parts[0], parts[1])
	case s.Type == GitLab && len(parts) >= 3 && parts[0] == "projects":
		s.gitlabProject(w, r, parts[1], parts[2:])
	case s.Type != GitLab && len(parts) >= 4 && parts[0] == "repos":
		s.repoResource(w, r, parts[1]+"/"+parts[2], parts[3:])
	default:
		s.notFound(w)
	}
}

// authorized checks the token in the forge's own header.
func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	switch s.Type {
	case GitLab:
		return r.Header.Get("PRIVATE-TOKEN") == s.opts.Token || r.Header.Get("Authorization") == "Bearer "+s.opts.Token
	case Forgejo:
		return r.Header.Get("Authorization") == "token "+s.opts.Token
	}
	return r.Header.Get("Authorization") == "Bearer "+s.opts.Token || r.Header.Get("Authorization") == "token "+s.opts.Token
}

func (s *Server) unauthorized(w http.ResponseWriter) {
	switch s.Type {
	case GitLab:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "401 Unauthorized"})
	case Forgejo:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "token is required", "url": s.srv.URL + "/api/swagger"})
	default:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"})
	}
}

func (s *Server) notFound(w http.ResponseWriter) {
	switch s.Type {
	case GitLab:
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "404 Not found"})
	case Forgejo:
		writeJSON(w, http.StatusNotFound, map[string]any{"errors": []string{"not found"}, "message": "The target couldn't be found.", "url": s.srv.URL + "/api/swagger"})
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})
	}
}

// rate applies the rate limit and writes its headers; false when the
// request was refused.
func (s *Server) rate(w http.ResponseWriter) bool {
	if s.opts.RateLimit == 0 {
		return true
	}
	now := time.Now()
	if !now.Before(s.windowStart.Add(s.opts.RateWindow).Add(time.Second - 1).Truncate(time.Second)) {
		s.windowStart, s.used = now, 0
	}
	// The reset is announced in whole epoch seconds, rounded up, as the
	// window really refills then at the latest.
	reset := s.windowStart.Add(s.opts.RateWindow).Add(time.Second - 1).Truncate(time.Second)
	remaining := s.opts.RateLimit - s.used
	h := w.Header()
	switch s.Type {
	case GitHub:
		h.Set("X-RateLimit-Limit", strconv.Itoa(s.opts.RateLimit))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		h.Set("X-RateLimit-Resource", "core")
	case GitLab:
		h.Set("RateLimit-Limit", strconv.Itoa(s.opts.RateLimit))
		h.Set("RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
	}
	if remaining <= 0 {
		wait := int(time.Until(reset).Seconds() + 0.999)
		switch s.Type {
		case GitHub:
			h.Set("X-RateLimit-Remaining", "0")
			h.Set("X-RateLimit-Used", strconv.Itoa(s.used))
			writeJSON(w, http.StatusForbidden, map[string]string{"message": "API rate limit exceeded for installation.", "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"})
		case GitLab:
			h.Set("RateLimit-Remaining", "0")
			h.Set("Retry-After", strconv.Itoa(wait))
			writeJSON(w, http.StatusTooManyRequests, map[string]string{"message": "Retry later"})
		default:
			h.Set("Retry-After", strconv.Itoa(wait))
			writeJSON(w, http.StatusTooManyRequests, map[string]string{"message": "rate limit exceeded"})
		}
		return false
	}
	s.used++
	switch s.Type {
	case GitHub:
		h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining-1))
		h.Set("X-RateLimit-Used", strconv.Itoa(s.used))
	case GitLab:
		h.Set("RateLimit-Remaining", strconv.Itoa(remaining-1))
		h.Set("RateLimit-Observed", strconv.Itoa(s.used))
	}
	return true
}

// list serves one page of an owner's repositories.
func (s *Server) list(w http.ResponseWriter, r *http.Request, kind, owner string) {
	isUser := slices.Contains(s.opts.Users, owner)
	switch {
	case kind == "users" && !isUser, kind != "users" && isUser:
		s.notFound(w)
		return
	case s.failListing > 0:
		s.failListing--
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"message": "Service Unavailable"})
		return
	}
	var mine []*Repo
	for _, repo := range s.repos {
		if repo.Owner == owner || (s.Type == GitLab && r.URL.Query().Get("include_subgroups") == "true" && strings.HasPrefix(repo.Owner, owner+"/")) {
			mine = append(mine, repo)
		}
	}
	if len(mine) == 0 && !s.knownOwner(owner) {
		s.notFound(w)
		return
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].id < mine[j].id })
	q := r.URL.Query()
	sizeKey, defSize, maxSize := "per_page", 30, 100
	switch s.Type {
	case GitLab:
		defSize = 20
	case Forgejo:
		sizeKey, defSize, maxSize = "limit", 30, 50
	}
	size := atoiDefault(q.Get(sizeKey), defSize)
	if size < 1 || size > maxSize {
		size = maxSize
	}
	page := max(atoiDefault(q.Get("page"), 1), 1)
	start := min((page-1)*size, len(mine))
	end := min(start+size, len(mine))
	items := make([]map[string]any, 0, end-start)
	for _, repo := range mine[start:end] {
		items = append(items, s.render(repo))
	}
	last := max((len(mine)+size-1)/size, 1)
	link := func(p int, rel string) string {
		u := *r.URL
		u.Scheme, u.Host = "http", r.Host
		v := u.Query()
		v.Set("page", strconv.Itoa(p))
		u.RawQuery = v.Encode()
		return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
	}
	var links []string
	if page < last {
		links = append(links, link(page+1, "next"))
	}
	links = append(links, link(1, "first"), link(last, "last"))
	if page > 1 {
		links = append(links, link(page-1, "prev"))
	}
	w.Header().Set("Link", strings.Join(links, ", "))
	switch s.Type {
	case GitLab:
		w.Header().Set("X-Page", strconv.Itoa(page))
		w.Header().Set("X-Per-Page", strconv.Itoa(size))
		w.Header().Set("X-Total", strconv.Itoa(len(mine)))
		w.Header().Set("X-Total-Pages", strconv.Itoa(last))
		if page < last {
			w.Header().Set("X-Next-Page", strconv.Itoa(page+1))
		}
	case Forgejo:
		w.Header().Set("X-Total-Count", strconv.Itoa(len(mine)))
	}
	writeJSON(w, http.StatusOK, items)
}

// knownOwner reports whether an owner exists even with no repositories.
func (s *Server) knownOwner(owner string) bool {
	for _, r := range s.repos {
		if strings.HasPrefix(r.Owner+"/", owner+"/") {
			return true
		}
	}
	return slices.Contains(s.opts.Users, owner)
}

// render fills the documented repository object with a repository's
// values.
func (s *Server) render(r *Repo) map[string]any {
	m := map[string]any{}
	for k, v := range s.tmpl {
		m[k] = v
	}
	stamp := r.Pushed.UTC().Format(time.RFC3339)
	switch s.Type {
	case GitHub:
		m["id"], m["name"], m["full_name"] = r.id, r.Name, r.FullPath()
		m["owner"] = map[string]any{"login": r.Owner, "id": 1, "type": "Organization", "site_admin": false}
		m["html_url"] = s.srv.URL + "/" + r.FullPath()
		m["url"] = s.srv.URL + "/repos/" + r.FullPath()
		m["clone_url"], m["ssh_url"] = r.CloneURL, r.SSHURL
		m["default_branch"], m["archived"], m["fork"], m["pushed_at"] = r.Branch, r.Archived, r.Fork, stamp
	case GitLab:
		m["id"], m["name"], m["path"], m["path_with_namespace"] = r.id, r.Name, r.Name, r.FullPath()
		m["name_with_namespace"] = strings.ReplaceAll(r.FullPath(), "/", " / ")
		m["http_url_to_repo"], m["ssh_url_to_repo"] = r.CloneURL, r.SSHURL
		m["web_url"] = s.srv.URL + "/" + r.FullPath()
		m["default_branch"], m["archived"], m["last_activity_at"] = r.Branch, r.Archived, stamp
		m["namespace"] = map[string]any{"id": 5, "name": r.Owner, "path": r.Owner[strings.LastIndexByte(r.Owner, '/')+1:], "kind": "group", "full_path": r.Owner}
		if r.Fork {
			m["forked_from_project"] = map[string]any{"id": 1, "path_with_namespace": "upstream/" + r.Name}
		}
	case Forgejo:
		m["id"], m["name"], m["full_name"] = r.id, r.Name, r.FullPath()
		m["owner"] = map[string]any{"id": 2, "login": r.Owner, "username": r.Owner}
		m["html_url"] = s.srv.URL + "/" + r.FullPath()
		m["url"] = s.srv.URL + "/api/v1/repos/" + r.FullPath()
		m["clone_url"], m["ssh_url"] = r.CloneURL, r.SSHURL
		m["default_branch"], m["archived"], m["fork"], m["updated_at"] = r.Branch, r.Archived, r.Fork, stamp
	}
	return m
}

func (s *Server) find(fullPath string) *Repo {
	for _, r := range s.repos {
		if r.FullPath() == fullPath {
			return r
		}
	}
	return nil
}

func (s *Server) findID(id string) *Repo {
	for _, r := range s.repos {
		if strconv.FormatInt(r.id, 10) == id {
			return r
		}
	}
	return nil
}

// repoResource serves /repos/{owner}/{repo}/contents/… and …/hooks
// (GitHub, Forgejo).
func (s *Server) repoResource(w http.ResponseWriter, r *http.Request, fullPath string, rest []string) {
	repo := s.find(fullPath)
	if repo == nil {
		s.notFound(w)
		return
	}
	switch rest[0] {
	case "contents":
		p := strings.Join(rest[1:], "/")
		if ref := r.URL.Query().Get("ref"); (ref != "" && ref != repo.Branch) || !hasPath(repo, p) {
			s.notFound(w)
			return
		}
		writeJSON(w, http.StatusOK, []map[string]any{{"type": "file", "name": "index.md", "path": p + "/index.md", "sha": "3d21ec53a331a6f037a91c368710b99387d012c1", "size": 5}})
	case "hooks":
		s.hooksResource(w, r, fullPath)
	default:
		s.notFound(w)
	}
}

// gitlabProject serves /projects/{id}/repository/tree and /hooks.
func (s *Server) gitlabProject(w http.ResponseWriter, r *http.Request, id string, rest []string) {
	repo := s.findID(id)
	if repo == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "404 Project Not Found"})
		return
	}
	switch {
	case len(rest) == 2 && rest[0] == "repository" && rest[1] == "tree":
		p := r.URL.Query().Get("path")
		if ref := r.URL.Query().Get("ref"); (ref != "" && ref != repo.Branch) || !hasPath(repo, p) {
			writeJSON(w, http.StatusNotFound, map[string]string{"message": "404 Tree Not Found"})
			return
		}
		writeJSON(w, http.StatusOK, []map[string]any{{"id": "a1e8f8d745cc87e3a9248358d9352bb7f9a0aeba", "name": "index.md", "type": "blob", "path": p + "/index.md", "mode": "100644"}})
	case len(rest) == 1 && rest[0] == "hooks":
		s.hooksResource(w, r, repo.FullPath())
	default:
		s.notFound(w)
	}
}

// hooksResource lists (GET) or registers (POST) webhooks, in each forge's
// request and answer format.
func (s *Server) hooksResource(w http.ResponseWriter, r *http.Request, fullPath string) {
	switch r.Method {
	case http.MethodGet:
		var out []map[string]any
		for i, h := range s.hooks[fullPath] {
			switch s.Type {
			case GitLab:
				out = append(out, map[string]any{"id": i + 1, "url": h.URL, "push_events": true})
			default:
				out = append(out, map[string]any{"id": i + 1, "type": "Repository", "active": true, "events": h.Events,
					"config": map[string]any{"url": h.URL, "content_type": "json"}})
			}
		}
		if out == nil {
			out = []map[string]any{}
		}
		writeJSON(w, http.StatusOK, out)
	case http.MethodPost:
		var body struct {
			URL        string            `json:"url"`
			Token      string            `json:"token"`
			PushEvents bool              `json:"push_events"`
			Events     []string          `json:"events"`
			Config     map[string]string `json:"config"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": "Problems parsing JSON"})
			return
		}
		h := Hook{URL: body.Config["url"], Secret: body.Config["secret"], Events: body.Events}
		if s.Type == GitLab {
			h = Hook{URL: body.URL, Secret: body.Token}
			if body.PushEvents {
				h.Events = []string{"push"}
			}
		}
		if h.URL == "" {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"message": "Validation Failed"})
			return
		}
		s.hooks[fullPath] = append(s.hooks[fullPath], h)
		writeJSON(w, http.StatusCreated, map[string]any{"id": len(s.hooks[fullPath]), "active": true})
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func hasPath(r *Repo, p string) bool {
	p = strings.Trim(p, "/")
	for _, have := range r.Paths {
		if have == p || strings.HasPrefix(have, p+"/") {
			return true
		}
	}
	return false
}

func atoiDefault(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
