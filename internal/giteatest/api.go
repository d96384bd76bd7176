package giteatest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
)

// Hook is a webhook as Gitea lists it.
type Hook struct {
	ID     int64             `json:"id"`
	Type   string            `json:"type"`
	Active bool              `json:"active"`
	Events []string          `json:"events"`
	Config map[string]string `json:"config"`
}

// api sends one API request (as the token, or with the admin's password
// when token is empty) and decodes the answer into out; any status but
// want fails the test.
func (s *Server) api(t testing.TB, method, path string, in any, want int, out any) {
	t.Helper()
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.URL+"/api/v1"+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if s.Token != "" {
		req.Header.Set("Authorization", "token "+s.Token)
	} else {
		req.SetBasicAuth(Admin, Password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("giteatest: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("giteatest: %s %s: %d, want %d: %s", method, path, resp.StatusCode, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("giteatest: %s %s: %v: %s", method, path, err, data)
		}
	}
}

// createToken asks for an API token with the admin's password, as a user
// would on the settings page.
func (s *Server) createToken(t testing.TB) string {
	t.Helper()
	var tok struct {
		SHA1 string `json:"sha1"`
	}
	s.api(t, http.MethodPost, "/users/"+Admin+"/tokens", map[string]any{
		"name": "docweave-tests", "scopes": []string{"write:organization", "write:repository", "write:user"},
	}, http.StatusCreated, &tok)
	if tok.SHA1 == "" {
		t.Fatal("giteatest: Gitea answered the token request without a token")
	}
	return tok.SHA1
}

// CreateOrg creates a public organisation.
func (s *Server) CreateOrg(t testing.TB, name string) {
	t.Helper()
	s.api(t, http.MethodPost, "/orgs", map[string]any{"username": name, "visibility": "public"}, http.StatusCreated, nil)
}

// CreateRepo creates a public repository of org with a first commit (a
// README on main), and returns its clone URL.
func (s *Server) CreateRepo(t testing.TB, org, name string) string {
	t.Helper()
	var repo struct {
		CloneURL string `json:"clone_url"`
	}
	s.api(t, http.MethodPost, "/orgs/"+url.PathEscape(org)+"/repos", map[string]any{
		"name": name, "auto_init": true, "default_branch": "main", "readme": "Default",
	}, http.StatusCreated, &repo)
	return repo.CloneURL
}

// Archive marks a repository archived.
func (s *Server) Archive(t testing.TB, fullName string) {
	t.Helper()
	s.api(t, http.MethodPatch, "/repos/"+fullName, map[string]any{"archived": true}, http.StatusOK, nil)
}

// Hooks lists the webhooks of a repository (owner/name).
func (s *Server) Hooks(t testing.TB, fullName string) []Hook {
	t.Helper()
	var hooks []Hook
	s.api(t, http.MethodGet, "/repos/"+fullName+"/hooks", nil, http.StatusOK, &hooks)
	return hooks
}

// Push clones a repository (owner/name) over Git HTTP as the admin,
// commits files (path → content) on main and pushes the commit back, as a
// developer would; it returns the commit's hash.
func (s *Server) Push(t testing.TB, fullName string, files map[string]string, msg string) string {
	t.Helper()
	u, err := url.Parse(s.URL + "/" + fullName + ".git")
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(Admin, Password)
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, filepath.Dir(dir), "clone", "--quiet", u.String(), dir)
	repo := gittest.Open(dir)
	head := repo.Commit(t, files, msg)
	repo.Git(t, "push", "--quiet", "origin", "HEAD:main")
	return head
}

// String names the server in test logs.
func (s *Server) String() string { return fmt.Sprintf("Gitea %s at %s", Version, s.URL) }

// Forge is the forges[] entry that scans org on this server with the
// admin's token and registers webhooks to hookBase (the address of
// docweave's webhook server).
func (s *Server) Forge(org, hookBase string) config.Forge {
	return config.Forge{
		Type: config.ForgeForgejo, BaseURL: s.URL, Organizations: []string{org},
		Auth:     config.Auth{Type: config.AuthToken, Token: s.Token},
		Webhooks: config.ForgeWebhooks{Register: true, URL: hookBase},
	}
}
