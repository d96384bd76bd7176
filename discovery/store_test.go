package discovery

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

func sampleSet() *Set {
	return &Set{Version: SetVersion, Forges: []ForgeState{{
		Name: "github", Type: "github", OK: true, ListedAt: time.Now().UTC().Truncate(time.Second),
		Repositories: []Repo{{Name: "api", FullPath: "acme/api", URL: "https://github.com/acme/api.git", Branch: "main"}},
	}}}
}

func githubConfig() *config.Config {
	cfg := config.Default()
	cfg.Forges = []config.Forge{{Type: config.ForgeGitHub, Organizations: []string{"acme"}, Paths: []string{"handbook"}}}
	return &cfg
}

func TestFileStoreRoundTripAndForgetsOtherVersions(t *testing.T) {
	ctx := context.Background()
	store := FileStore{Path: filepath.Join(t.TempDir(), "ws", FileName)}
	if set, err := store.Load(ctx); set != nil || err != nil {
		t.Fatalf("empty store: %v %v", set, err)
	}
	if err := store.Save(ctx, sampleSet()); err != nil {
		t.Fatal(err)
	}
	got, err := store.Load(ctx)
	if err != nil || got == nil || got.Forges[0].Repositories[0].Name != "api" {
		t.Fatalf("loaded %+v %v", got, err)
	}
	if err := os.WriteFile(store.Path, []byte(`{"version": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := store.Load(ctx); got != nil || err != nil {
		t.Fatalf("a set of another version must read as none: %+v %v", got, err)
	}
}

// TestFollowAppliesTheStoredSetInEveryProcess: a process following the
// bucket builds what another process saved, at once and after changes, and
// a refresh reads it on demand.
func TestFollowAppliesTheStoredSetInEveryProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, err := natsbroker.Open(ctx, natsbroker.Options{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	store, err := OpenKV(ctx, b.JS, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Save(ctx, sampleSet()); err != nil {
		t.Fatal(err)
	}
	cfg := githubConfig()
	if err := Follow(ctx, store, cfg, zerolog.Nop()); err != nil {
		t.Fatal(err)
	}
	r, ok := cfg.Repository("api")
	if !ok || r.Paths[0] != "handbook" || r.URL != "https://github.com/acme/api.git" {
		t.Fatalf("followed set not applied: %+v %v", r, ok)
	}
	next := sampleSet()
	next.Forges[0].Repositories[0].Name = "api-v2"
	if err := store.Save(ctx, next); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := cfg.Repository("api-v2"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the change to the stored set never reached the follower")
		}
		time.Sleep(10 * time.Millisecond)
	}
	other := githubConfig()
	other.SetDiscoveryRefresh(func(ctx context.Context) error {
		set, err := store.Load(ctx)
		if err == nil {
			Apply(other, set)
		}
		return err
	})
	if err := other.RefreshDiscovered(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := other.Repository("api-v2"); !ok {
		t.Fatal("RefreshDiscovered did not load the stored set")
	}
	if st := cfg.ForgeStatuses(); len(st) != 1 || !st[0].OK || st[0].Repositories != 1 {
		t.Fatalf("statuses %+v", st)
	}
}

func TestNextLinkAndRetryAfter(t *testing.T) {
	link := `<https://api.github.com/organizations/1/repos?page=2>; rel="next", <https://api.github.com/organizations/1/repos?page=5>; rel="last"`
	if got := nextLink(link, "https://api.github.com/orgs/acme/repos"); got != "https://api.github.com/organizations/1/repos?page=2" {
		t.Fatalf("next %q", got)
	}
	if got := nextLink(`</api/v4/groups/1/projects?page=3>; rel="next"`, "https://gitlab.example.com/api/v4/groups/1/projects"); got != "https://gitlab.example.com/api/v4/groups/1/projects?page=3" {
		t.Fatalf("relative next %q", got)
	}
	if got := nextLink(`<https://x/?page=1>; rel="first"`, "https://x/"); got != "" {
		t.Fatalf("no next: %q", got)
	}
}

// TestCredentialsStayOnTheForgesHost: a Link header or a redirect that
// points to another host is not followed with the token.
func TestCredentialsStayOnTheForgesHost(t *testing.T) {
	var leaked atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("PRIVATE-TOKEN") != "" || r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		w.Write([]byte("[]"))
	}))
	defer elsewhere.Close()
	forge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.Contains(r.URL.Path, "/groups/"):
			w.Header().Set("Link", "<"+elsewhere.URL+"/api/v4/groups/x/projects?page=2>; rel=\"next\"")
			w.Write([]byte(`[{"id": 1, "path": "a", "path_with_namespace": "g/a", "default_branch": "main"}]`))
		default:
			http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusFound)
		}
	}))
	defer forge.Close()
	cfg := config.Default()
	cfg.Build.MaxRetries = 0
	cfg.Forges = []config.Forge{{Type: config.ForgeGitLab, BaseURL: forge.URL, Organizations: []string{"g"}, Auth: config.Auth{Type: config.AuthToken, Token: "secret"}}}
	st := scanner().Scan(context.Background(), &cfg, nil).Forges[0]
	if st.OK || !strings.Contains(st.Error, "another host") {
		t.Fatalf("scan %+v: a next page on another host must fail the listing", st)
	}
	cfg.Forges[0].Type = config.ForgeForgejo // its listing is redirected
	st = scanner().Scan(context.Background(), &cfg, nil).Forges[0]
	if st.OK || !strings.Contains(st.Error, "redirect") {
		t.Fatalf("scan %+v: a redirect to another host must fail", st)
	}
	if leaked.Load() != 0 {
		t.Fatalf("credentials reached another host %d times", leaked.Load())
	}
}
