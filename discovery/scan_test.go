package discovery

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/forgetest"
	"github.com/docweave/docweave/report"
)

const token = "forge-token-0123456789"

// configFor is a configuration with one forge entry pointing at srv.
func configFor(srv *forgetest.Server, orgs ...string) *config.Config {
	cfg := config.Default()
	cfg.Build.MaxRetries = 0
	cfg.Forges = []config.Forge{{
		Type: srv.Type, BaseURL: srv.URL(), Organizations: orgs,
		Auth: config.Auth{Type: config.AuthToken, Token: token},
	}}
	return &cfg
}

// populate adds n repositories to org: every third without docs, one
// archived and one fork among them.
func populate(srv *forgetest.Server, org string, n int) (withDocs int) {
	for i := range n {
		r := forgetest.Repo{Owner: org, Name: fmt.Sprintf("repo-%03d", i), CloneURL: "https://git.example.com/" + org + fmt.Sprintf("/repo-%03d.git", i)}
		if i%3 != 0 {
			r.Paths = []string{"docs"}
		}
		switch i {
		case 1:
			r.Archived = true
		case 2:
			r.Fork = true
		}
		if len(r.Paths) > 0 && !r.Archived && !r.Fork {
			withDocs++
		}
		srv.Add(r)
	}
	return withDocs
}

func scanner() *Scanner { return &Scanner{Log: zerolog.Nop()} }

func TestScanEachForgePagesFiltersAndChecksPaths(t *testing.T) {
	for _, c := range []struct {
		typ   string
		pages int // listing pages for 120 repositories
	}{{forgetest.GitHub, 2}, {forgetest.GitLab, 2}, {forgetest.Forgejo, 3}} {
		t.Run(c.typ, func(t *testing.T) {
			srv := forgetest.New(t, c.typ, forgetest.Options{Token: token})
			want := populate(srv, "acme", 120)
			cfg := configFor(srv, "acme")
			set := scanner().Scan(context.Background(), cfg, nil)
			st := set.Forges[0]
			if !st.OK || st.Listed != 120 || len(st.Repositories) != want {
				t.Fatalf("ok %v (%s), listed %d, taken %d; want 120 listed, %d taken", st.OK, st.Error, st.Listed, len(st.Repositories), want)
			}
			// Archived and forked repositories are not even checked.
			if checks := 120 - 2; st.Requests != c.pages+checks || srv.Requests() != st.Requests {
				t.Fatalf("%d requests (server saw %d), want %d pages + %d path checks", st.Requests, srv.Requests(), c.pages, checks)
			}
			r := st.Repositories[0]
			if r.Name != "repo-004" || r.URL != "https://git.example.com/acme/repo-004.git" || r.Branch != "main" {
				t.Fatalf("first repository %+v", r)
			}
			Apply(cfg, set)
			got, ok := cfg.Repository("repo-004")
			if !ok || got.Auth.Token != token || got.Paths[0] != "docs" {
				t.Fatalf("repo-004 in the configuration: %+v %v", got, ok)
			}
		})
	}
}

func TestRescanAsksOnlyAboutChangedRepositories(t *testing.T) {
	srv := forgetest.New(t, forgetest.GitHub, forgetest.Options{Token: token})
	populate(srv, "acme", 30)
	cfg := configFor(srv, "acme")
	first := scanner().Scan(context.Background(), cfg, nil)
	second := scanner().Scan(context.Background(), cfg, first)
	if second.Forges[0].Requests != 1 || len(second.Forges[0].Repositories) != len(first.Forges[0].Repositories) {
		t.Fatalf("an unchanged organisation cost %d requests; want the one listing page", second.Forges[0].Requests)
	}
	srv.Push("acme/repo-000", []string{"docs"})   // gains documentation
	srv.Push("acme/repo-004", []string{"source"}) // loses it
	srv.Remove("acme/repo-005")
	third := scanner().Scan(context.Background(), cfg, second)
	st := third.Forges[0]
	if st.Requests != 3 {
		t.Fatalf("%d requests; want 1 page and 2 path checks", st.Requests)
	}
	names := map[string]bool{}
	for _, r := range st.Repositories {
		names[r.Name] = true
	}
	if !names["repo-000"] || names["repo-004"] || names["repo-005"] {
		t.Fatalf("taken after the pushes: %v", names)
	}
	// Changing what is taken drops the cached decisions.
	cfg.Forges[0].Exclude = []string{"repo-01*"}
	fourth := scanner().Scan(context.Background(), cfg, third)
	if fourth.Forges[0].Requests < 10 {
		t.Fatalf("%d requests after a settings change; every repository must be checked again", fourth.Forges[0].Requests)
	}
}

func TestAFailedListingKeepsTheLastSet(t *testing.T) {
	srv := forgetest.New(t, forgetest.GitLab, forgetest.Options{Token: token})
	populate(srv, "platform/docs", 9)
	cfg := configFor(srv, "platform")
	first := scanner().Scan(context.Background(), cfg, nil)
	if len(first.Forges[0].Repositories) == 0 {
		t.Fatalf("subgroup repositories not found: %+v", first.Forges[0])
	}
	srv.FailListings(10)
	second := scanner().Scan(context.Background(), cfg, first)
	st := second.Forges[0]
	if st.OK || !strings.Contains(st.Error, "503") || len(st.Repositories) != len(first.Forges[0].Repositories) {
		t.Fatalf("failed scan %+v: want not OK with the 503, keeping %d repositories", st, len(first.Forges[0].Repositories))
	}
	if !st.ListedAt.Equal(first.Forges[0].ListedAt) {
		t.Fatal("listed_at must stay at the last successful scan")
	}
	Apply(cfg, second)
	forges, issues := ReportSection(cfg)
	if len(forges) != 1 || forges[0].Status != report.ForgeFailed || len(issues) != 1 || issues[0].Code != report.CodeForgeListFailed {
		t.Fatalf("report section %+v %+v", forges, issues)
	}
	if !strings.Contains(issues[0].Message, "repositories of the scan of") {
		t.Fatalf("the issue should say what is built instead: %s", issues[0].Message)
	}
	if len(cfg.Discovered()) != len(first.Forges[0].Repositories) {
		t.Fatal("the kept repositories are not built")
	}
}

func TestCredentialsAreRefusedClearly(t *testing.T) {
	for _, typ := range []string{forgetest.GitHub, forgetest.GitLab, forgetest.Forgejo} {
		srv := forgetest.New(t, typ, forgetest.Options{Token: "right"})
		populate(srv, "acme", 3)
		cfg := configFor(srv, "acme")
		st := scanner().Scan(context.Background(), cfg, nil).Forges[0]
		if st.OK || !strings.Contains(st.Error, "401") || strings.Contains(st.Error, token) {
			t.Errorf("%s: %q, want a 401 without the token", typ, st.Error)
		}
	}
}

func TestUsersAreListedLikeOrganisations(t *testing.T) {
	for _, typ := range []string{forgetest.GitHub, forgetest.GitLab, forgetest.Forgejo} {
		srv := forgetest.New(t, typ, forgetest.Options{Users: []string{"alice"}})
		srv.Add(forgetest.Repo{Owner: "alice", Name: "notes", Paths: []string{"docs"}, CloneURL: "https://git.example.com/alice/notes.git"})
		st := scanner().Scan(context.Background(), configFor(srv, "alice"), nil).Forges[0]
		if !st.OK || len(st.Repositories) != 1 {
			t.Errorf("%s: user alice: %+v", typ, st)
		}
		if st := scanner().Scan(context.Background(), configFor(srv, "nobody"), nil).Forges[0]; st.OK || !strings.Contains(st.Error, "no such organisation") {
			t.Errorf("%s: unknown owner: %+v", typ, st)
		}
	}
}

func TestRateLimitsAreWaitedForOrFailTheScan(t *testing.T) {
	for _, typ := range []string{forgetest.GitHub, forgetest.GitLab} {
		srv := forgetest.New(t, typ, forgetest.Options{RateLimit: 4, RateWindow: 1500 * time.Millisecond})
		want := populate(srv, "acme", 9)
		cfg := configFor(srv, "acme")
		start := time.Now()
		st := scanner().Scan(context.Background(), cfg, nil).Forges[0]
		if !st.OK || len(st.Repositories) != want {
			t.Fatalf("%s: %+v: the scan should wait for the window and finish", typ, st)
		}
		if time.Since(start) < time.Second {
			t.Fatalf("%s: 8 requests at 4 per window finished in %s: the limit was not respected", typ, time.Since(start))
		}
		s := scanner()
		s.MaxRateWait = 50 * time.Millisecond
		srv2 := forgetest.New(t, typ, forgetest.Options{RateLimit: 2, RateWindow: time.Hour})
		populate(srv2, "acme", 9)
		st = s.Scan(context.Background(), configFor(srv2, "acme"), nil).Forges[0]
		if st.OK && len(st.Warnings) == 0 {
			t.Fatalf("%s: a limit exhausted for an hour must not pass silently: %+v", typ, st)
		}
		if srv2.Requests() > 6 {
			t.Fatalf("%s: %d requests hammered an exhausted limit", typ, srv2.Requests())
		}
	}
}

func TestNamesAreUniqueStableAndSafe(t *testing.T) {
	srv := forgetest.New(t, forgetest.Forgejo, forgetest.Options{})
	for _, r := range []forgetest.Repo{
		{Owner: "a", Name: "handbook"}, {Owner: "b", Name: "handbook"}, {Owner: "a", Name: "api"}, {Owner: "a", Name: ".profile"},
		{Owner: "a", Name: "_xref"},
	} {
		r.Paths, r.CloneURL = []string{"docs"}, "https://git.example.com/"+r.Owner+"/"+r.Name+".git"
		srv.Add(r)
	}
	cfg := configFor(srv, "a", "b")
	cfg.Repositories = []config.Repository{{Name: "API", URL: "https://elsewhere.example/api.git"}}
	set := scanner().Scan(context.Background(), cfg, nil)
	got := map[string]string{}
	for _, r := range set.Forges[0].Repositories {
		got[r.FullPath] = r.Name
	}
	want := map[string]string{"a/handbook": "handbook", "b/handbook": "b-handbook", "a/api": "a-api", "a/.profile": "profile", "a/_xref": "a-_xref"}
	for p, n := range want {
		if got[p] != n {
			t.Errorf("%s named %q, want %q (all: %v)", p, got[p], n, got)
		}
	}
	// a/handbook leaves; b/handbook keeps its name rather than moving.
	srv.Remove("a/handbook")
	again := scanner().Scan(context.Background(), cfg, set)
	for _, r := range again.Forges[0].Repositories {
		if r.FullPath == "b/handbook" && r.Name != "b-handbook" {
			t.Fatalf("b/handbook renamed to %q; names must be stable", r.Name)
		}
	}
}

func TestSSHAuthClonesOverSSHAndAsksTheAPIAnonymously(t *testing.T) {
	srv := forgetest.New(t, forgetest.GitHub, forgetest.Options{})
	srv.Add(forgetest.Repo{Owner: "acme", Name: "docs", Paths: []string{"docs"}, CloneURL: "https://h/acme/docs.git", SSHURL: "git@h:acme/docs.git"})
	cfg := configFor(srv, "acme")
	cfg.Forges[0].Auth = config.Auth{Type: config.AuthSSH, KeyPath: filepath.Join(t.TempDir(), "id")}
	st := scanner().Scan(context.Background(), cfg, nil).Forges[0]
	if !st.OK || st.Repositories[0].URL != "git@h:acme/docs.git" {
		t.Fatalf("%+v, want the SSH URL", st)
	}
}

func TestWebhooksAreRegisteredOnce(t *testing.T) {
	for _, typ := range []string{forgetest.GitHub, forgetest.GitLab, forgetest.Forgejo} {
		srv := forgetest.New(t, typ, forgetest.Options{Token: token})
		srv.Add(forgetest.Repo{Owner: "acme", Name: "docs", Paths: []string{"docs"}, CloneURL: "https://h/acme/docs.git"})
		srv.Add(forgetest.Repo{Owner: "acme", Name: "code", CloneURL: "https://h/acme/code.git"})
		cfg := configFor(srv, "acme")
		cfg.Forges[0].Webhooks = config.ForgeWebhooks{Register: true, URL: "https://docs.example.com:8081/"}
		cfg.Daemon.Webhooks = config.Webhooks{GitHubSecret: "gh-secret", GitLabToken: "gl-token", ForgejoSecret: "fj-secret"}
		s := scanner()
		s.RegisterWebhooks = true
		first := s.Scan(context.Background(), cfg, nil)
		hooks := srv.Hooks("acme/docs")
		wantURL := "https://docs.example.com:8081/webhooks/" + typ
		if len(hooks) != 1 || hooks[0].URL != wantURL || hooks[0].Secret != webhookSecret(cfg, typ) || hooks[0].Events[0] != "push" {
			t.Fatalf("%s: hooks %+v, want one push hook to %s with the forge's secret", typ, hooks, wantURL)
		}
		if len(srv.Hooks("acme/code")) != 0 {
			t.Fatalf("%s: a repository without documentation got a webhook", typ)
		}
		before := srv.Requests()
		s.Scan(context.Background(), cfg, first)
		if len(srv.Hooks("acme/docs")) != 1 || srv.Requests()-before != 1 {
			t.Fatalf("%s: the second scan made %d requests and left %d hooks; want the listing only", typ, srv.Requests()-before, len(srv.Hooks("acme/docs")))
		}
	}
}

// A forge's API is input like a configuration file: a clone URL or
// default branch that configuration validation would refuse (one Git
// would read as an option, a scheme docweave does not clone, a control
// character) leaves that repository out with a warning — before any
// request about it — and the others are taken.
func TestRepositoriesWithUnusableURLsOrBranchesAreLeftOut(t *testing.T) {
	srv := forgetest.New(t, forgetest.GitHub, forgetest.Options{Token: token})
	good := forgetest.Repo{Owner: "acme", Name: "good", Paths: []string{"docs"}, CloneURL: "https://git.example.com/acme/good.git"}
	srv.Add(good)
	bad := map[string]forgetest.Repo{
		"option-url":  {CloneURL: "-oProxyCommand=touch /tmp/pwned:x"},
		"ext-url":     {CloneURL: "ext::sh -c touch% /tmp/pwned"},
		"newline-url": {CloneURL: "https://git.example.com/acme/x.git\nHost: evil"},
		"creds-url":   {CloneURL: "https://user:s3cr3t-pass@git.example.com/acme/x.git\x00"},
		"option-ref":  {CloneURL: "https://git.example.com/acme/y.git", Branch: "--upload-pack=touch /tmp/pwned"},
		"dotdot-ref":  {CloneURL: "https://git.example.com/acme/z.git", Branch: "main/../../x"},
	}
	for name, r := range bad {
		r.Owner, r.Name, r.Paths = "acme", name, []string{"docs"}
		srv.Add(r)
	}
	st := scanner().Scan(context.Background(), configFor(srv, "acme"), nil).Forges[0]
	if !st.OK || len(st.Repositories) != 1 || st.Repositories[0].FullPath != "acme/good" {
		t.Fatalf("ok %v (%s), taken %+v; want acme/good only", st.OK, st.Error, st.Repositories)
	}
	if st.Requests != 2 {
		t.Fatalf("%d requests; want the listing and the path check of acme/good only", st.Requests)
	}
	warnings := strings.Join(st.Warnings, "\n")
	for name := range bad {
		if !strings.Contains(warnings, `"acme/`+name+`" left out`) {
			t.Errorf("no warning for acme/%s in:\n%s", name, warnings)
		}
	}
	if strings.Contains(warnings, "s3cr3t-pass") {
		t.Fatalf("a warning repeats the credentials of a URL:\n%s", warnings)
	}
}
