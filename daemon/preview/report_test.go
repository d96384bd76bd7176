package preview

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

// forgeAPI is a forge's status endpoint on loopback, in the format its
// documentation gives: it records the request and answers 201.
type forgeAPI struct {
	method, path string
	header       http.Header
	body         map[string]string
}

func newForgeAPI(t *testing.T) (*forgeAPI, string) {
	t.Helper()
	got := &forgeAPI{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.method, got.path, got.header = r.Method, r.URL.EscapedPath(), r.Header.Clone()
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &got.body); err != nil {
			http.Error(w, "not JSON", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"id":1}`))
	}))
	t.Cleanup(srv.Close)
	return got, srv.URL
}

// The status reaches each forge's documented endpoint with its own
// authentication, the preview's URL and the one-line summary.
func TestCommitStatusOnEachForge(t *testing.T) {
	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "alpha", Auth: config.Auth{Type: config.AuthToken, Token: "tok-123"}}}
	st := Status{Repository: "alpha", State: StateReady, URL: "https://docs.example.com/previews/alpha-0123456789/",
		Changes: &Changes{Changed: []string{"/docs/alpha/guide/"}}, LinksBroken: []BrokenLink{{}, {}}}
	sha := "aa11bb22cc33dd44ee55ff66aa77bb88cc99dd00"
	cases := []struct {
		forge, project, path, authHeader, auth, state, nameField string
	}{
		{"github", "org/alpha", "/repos/org/alpha/statuses/" + sha, "Authorization", "Bearer tok-123", "success", "context"},
		{"forgejo", "org/alpha", "/api/v1/repos/org/alpha/statuses/" + sha, "Authorization", "token tok-123", "success", "context"},
		{"gitlab", "812", "/api/v4/projects/812/statuses/" + sha, "Private-Token", "tok-123", "success", "name"},
	}
	for _, c := range cases {
		t.Run(c.forge, func(t *testing.T) {
			got, base := newForgeAPI(t)
			api := base
			switch c.forge {
			case "forgejo":
				api += "/api/v1"
			case "gitlab":
				api += "/api/v4"
			}
			r := ForgeReporter{Config: &cfg}
			if err := r.Report(context.Background(), ReportTarget{Forge: c.forge, API: api, Project: c.project, Commit: sha}, st); err != nil {
				t.Fatal(err)
			}
			if got.method != http.MethodPost || got.path != c.path || got.header.Get(c.authHeader) != c.auth {
				t.Fatalf("%s %s, %s: %q", got.method, got.path, c.authHeader, got.header.Get(c.authHeader))
			}
			want := map[string]string{"state": c.state, "target_url": st.URL, "description": "0 pages added, 1 changed, 0 removed; 2 links broken", c.nameField: StatusContext}
			for k, v := range want {
				if got.body[k] != v {
					t.Errorf("%s = %q, want %q", k, got.body[k], v)
				}
			}
		})
	}
}

// A build under way and a failed one have the forge's own state names; a
// repository without a token and a refusing forge are errors.
func TestCommitStatusStatesAndErrors(t *testing.T) {
	for _, c := range []struct{ forge, state, want string }{
		{"github", StateBuilding, "pending"}, {"gitlab", StateBuilding, "running"},
		{"forgejo", StateFailed, "error"}, {"gitlab", StateFailed, "failed"},
	} {
		if got := forgeState(c.forge, c.state); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.forge, c.state, got, c.want)
		}
	}
	cfg := config.Default()
	cfg.Repositories = []config.Repository{{Name: "alpha"}}
	err := ForgeReporter{Config: &cfg}.Report(context.Background(), ReportTarget{Forge: "github", API: "http://127.0.0.1:1"}, Status{Repository: "alpha"})
	if err == nil || !strings.Contains(err.Error(), "auth.token") {
		t.Errorf("no token: %v", err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	cfg.Repositories[0].Auth = config.Auth{Type: config.AuthToken, Token: "tok"}
	err = ForgeReporter{Config: &cfg}.Report(context.Background(), ReportTarget{Forge: "github", API: srv.URL, Project: "o/r", Commit: "abc"}, Status{Repository: "alpha", State: StateReady})
	if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), "tok") {
		t.Errorf("refused: %v", err)
	}
}
