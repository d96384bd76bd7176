package clone

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/workspace"
)

func newStage(t *testing.T, repos ...config.Repository) (pipeline.Stage, *config.Config) {
	t.Helper()
	st, cfg, _ := newStageStore(t, repos...)
	return st, cfg
}

// newStageStore is newStage that also returns the artifact store.
func newStageStore(t *testing.T, repos ...config.Repository) (pipeline.Stage, *config.Config, *artifact.Local) {
	t.Helper()
	cfg := config.Default()
	cfg.Repositories = repos
	cfg.Build.WorkspaceDir = t.TempDir()
	cfg.Build.MaxRetries = 0
	store, err := artifact.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(pipeline.Deps{Config: &cfg, Store: store, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return st, &cfg, store
}

func job(repo string) *events.RepoClone {
	return &events.RepoClone{Header: events.Header{ID: "j", BuildID: "b1"}, Repository: repo, ContentPath: repo}
}

func TestCloneAcquiresOverSmartHTTP(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{BasicUser: "reader", BasicPassword: "pw"})
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Hi"})
	url := srv.Add(t, "docs", repo)
	st, cfg := newStage(t, config.Repository{Name: "docs", URL: url,
		Auth: config.Auth{Type: config.AuthBasic, Username: "reader", Password: "pw"}})
	if st.Concurrency != 1 {
		t.Fatalf("concurrency %d not bounded by the repository count", st.Concurrency)
	}
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].(*events.RepoCloned)
	if got.Failure != nil || got.Commit != repo.Head(t) || got.Branch != "main" {
		t.Fatalf("cloned %+v, want commit %s on main", got, repo.Head(t))
	}
	if got.DocFiles != 1 || !strings.HasPrefix(got.Tree, "sha256:") {
		t.Fatalf("collected %d files as %q", got.DocFiles, got.Tree)
	}
	// The per-build checkout is gone: only the tree leaves the stage.
	dir, err := workspace.For(cfg).Dir(workspace.FreshKey("b1", "docs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("fresh checkout left behind: %v", err)
	}
}

func TestCloneFailureIsAResultNotAnError(t *testing.T) {
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{BasicUser: "reader", BasicPassword: "pw"})
	url := srv.Add(t, "docs", gittest.NewRepo(t, map[string]string{"docs/a.md": "a"}))
	st, _ := newStage(t, config.Repository{Name: "docs", URL: url,
		Auth: config.Auth{Type: config.AuthBasic, Username: "reader", Password: "wrong-secret"}})
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatalf("a refused clone must not fail the stage: %v", err)
	}
	got := out[0].(*events.RepoCloned)
	if got.Failure == nil || got.Failure.Code != report.CodeCloneAuth || got.Failure.Transient {
		t.Fatalf("failure %+v, want CLONE_AUTH, not transient", got.Failure)
	}
	if got.Failure.Repository != "docs" || got.Failure.Stage != Name {
		t.Fatalf("failure not attributed: %+v", got.Failure)
	}
	if strings.Contains(got.Failure.Message, "wrong-secret") {
		t.Fatalf("password in the issue: %s", got.Failure.Message)
	}
}

func TestCloneRefusesUnknownRepository(t *testing.T) {
	st, _ := newStage(t, config.Repository{Name: "docs", URL: "file:///nowhere"})
	if _, err := st.Handle(context.Background(), job("other")); !pipeline.IsPermanent(err) {
		t.Fatalf("unknown repository: %v, want a permanent error", err)
	}
}

// TestCloneOverSSHPinsTheHostKeyFromConfiguration: auth.known_hosts pins the
// server's key; a known_hosts file with another key refuses the clone.
func TestCloneOverSSHPinsTheHostKeyFromConfiguration(t *testing.T) {
	srv := gittest.NewSSHServer(t, t.TempDir())
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Over SSH"})
	url := srv.Add(t, "docs", repo)
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(known, []byte(srv.HostKeyLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	auth := config.Auth{Type: config.AuthSSH, KeyPath: srv.ClientKeyPath(), KnownHosts: known}
	st, _ := newStage(t, config.Repository{Name: "docs", URL: url, Auth: auth})
	out, err := st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	if got := out[0].(*events.RepoCloned); got.Failure != nil || got.Commit != repo.Head(t) {
		t.Fatalf("ssh clone: %+v", got.Failure)
	}

	other := gittest.NewSSHServer(t, t.TempDir())
	wrong := filepath.Join(t.TempDir(), "known_hosts")
	line := other.HostKeyLine()
	// The other server's key, claimed for this server's address.
	_, key, _ := strings.Cut(line, " ")
	hostPart, _, _ := strings.Cut(srv.HostKeyLine(), " ")
	if err := os.WriteFile(wrong, []byte(hostPart+" "+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	auth.KnownHosts = wrong
	st, _ = newStage(t, config.Repository{Name: "docs", URL: url, Auth: auth})
	out, err = st.Handle(context.Background(), job("docs"))
	if err != nil {
		t.Fatal(err)
	}
	if got := out[0].(*events.RepoCloned); got.Failure == nil || got.Failure.Transient {
		t.Fatalf("a mismatched host key was accepted: %+v", got)
	}
}
