package discovery

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/gitx"
)

// Defaults of a Scanner.
const (
	// DefaultPathChecks is how many path checks of one forge are in flight.
	DefaultPathChecks = 8
	// DefaultMaxRateWait is the longest a scan waits for a rate limit to
	// refill before it fails (and keeps the last set).
	DefaultMaxRateWait = 2 * time.Minute
	// requestTimeout bounds one API request.
	requestTimeout = 30 * time.Second
	// maxWarnings bounds the warnings kept per forge.
	maxWarnings = 20
)

// Scanner lists the configured forges and decides which repositories to
// take. Its zero value works.
type Scanner struct {
	// HTTP sends the API requests; nil means a client with a 30 s timeout.
	HTTP *http.Client
	// RegisterWebhooks registers docweave's webhook on the repositories
	// taken from forges whose webhooks.register is set (daemon mode).
	RegisterWebhooks bool
	// PathChecks bounds the path checks in flight per forge.
	PathChecks int
	// MaxRateWait is the longest wait for a rate limit.
	MaxRateWait time.Duration
	Log         zerolog.Logger
	// sleep replaces waiting in tests.
	sleep func(context.Context, time.Duration) error
}

// Scan scans every configured forge (in parallel) and returns the new set.
// A forge that cannot be listed keeps its repositories from prev and is
// marked failed with the reason; the others are listed afresh, reusing
// prev's decision for every repository whose default branch and last push
// are unchanged, so a repeated scan costs the listing pages only.
func (s *Scanner) Scan(ctx context.Context, cfg *config.Config, prev *Set) *Set {
	out := &Set{Version: SetVersion, Forges: make([]ForgeState, len(cfg.Forges))}
	var wg sync.WaitGroup
	for i, f := range cfg.Forges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Forges[i] = s.scanForge(ctx, cfg, f, prev.state(f.Label()))
		}()
	}
	wg.Wait()
	assignNames(cfg, out.Forges, prev)
	if s.RegisterWebhooks {
		for i, f := range cfg.Forges {
			if f.Webhooks.Register && out.Forges[i].OK {
				s.registerHooks(ctx, cfg, f, &out.Forges[i])
			}
		}
	}
	return out
}

// scanForge lists one forge and checks its repositories.
func (s *Scanner) scanForge(ctx context.Context, cfg *config.Config, f config.Forge, prev *ForgeState) ForgeState {
	start := time.Now()
	log := s.Log.With().Str("forge", f.Label()).Logger()
	c := s.client(cfg)
	d := newDialect(f, c)
	st := ForgeState{Name: f.Label(), Type: f.Type, Settings: settingsKey(f), ScannedAt: start.UTC()}
	finish := func() ForgeState {
		st.Requests = int(c.requests.Load())
		st.DurationMS = time.Since(start).Milliseconds()
		return st
	}

	listed, err := s.listAll(ctx, d, f)
	if err != nil {
		st.Error = fmt.Sprintf("list %s: %v", strings.Join(f.Organizations, ", "), err)
		if prev != nil {
			st.Repositories, st.Seen, st.ListedAt, st.Listed = prev.Repositories, prev.Seen, prev.ListedAt, prev.Listed
		}
		log.Warn().Str("error", st.Error).Int("kept", len(st.Repositories)).Msg("forge not listed; keeping its last discovered repositories")
		return finish()
	}
	st.Listed = len(listed)
	cache := decisions(prev, st.Settings)
	var candidates []listedRepo
	useSSH := f.Auth.Type == config.AuthSSH
	for _, r := range listed {
		switch {
		case r.Archived && !f.IncludeArchived, r.Fork && !f.IncludeForks, r.Empty, r.Branch == "", !f.Takes(r.FullPath):
			continue
		}
		// What the forge says is input like a configuration file: a clone
		// URL or branch that would not pass validation there is left out.
		if msg := config.RepositorySourceProblem(cloneURL(r, useSSH), r.Branch); msg != "" {
			st.warn(fmt.Sprintf("%s left out: %s", strconv.Quote(r.FullPath), msg))
			continue
		}
		candidates = append(candidates, r)
	}
	taken := make([]bool, len(candidates))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, s.pathChecks())
	for i, r := range candidates {
		if dec, ok := cache[r.FullPath]; ok && dec.branch == r.Branch && dec.updatedAt == r.UpdatedAt && r.UpdatedAt != "" {
			taken[i] = dec.taken
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			has, err := hasDocs(ctx, d, r, f.DocPaths())
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				// Keep what was decided before; a repository never
				// checked stays out until a check succeeds.
				prevDecision, known := cache[r.FullPath]
				taken[i] = known && prevDecision.taken
				st.warn(fmt.Sprintf("check the documentation paths of %s: %v", r.FullPath, err))
				return
			}
			taken[i] = has
		}()
	}
	wg.Wait()
	for i, r := range candidates {
		if !taken[i] {
			st.Seen = append(st.Seen, Seen{FullPath: r.FullPath, Branch: r.Branch, UpdatedAt: r.UpdatedAt})
			continue
		}
		repo := Repo{FullPath: r.FullPath, ID: r.ID, URL: cloneURL(r, useSSH), Branch: r.Branch, UpdatedAt: r.UpdatedAt}
		if dec, ok := cache[r.FullPath]; ok {
			repo.Hook = dec.hook
		}
		st.Repositories = append(st.Repositories, repo)
	}
	sort.Slice(st.Seen, func(i, j int) bool { return st.Seen[i].FullPath < st.Seen[j].FullPath })
	st.OK, st.ListedAt = true, start.UTC()
	log.Info().Int("listed", st.Listed).Int("taken", len(st.Repositories)).Int("requests", int(c.requests.Load())).
		Dur("took", time.Since(start)).Msg("forge scanned")
	return finish()
}

// listAll lists every organisation of the forge, each repository once.
func (s *Scanner) listAll(ctx context.Context, d dialect, f config.Forge) ([]listedRepo, error) {
	seen := map[string]bool{}
	var out []listedRepo
	for _, org := range f.Organizations {
		repos, err := d.list(ctx, org)
		if errors.Is(err, errNotFound) {
			return nil, fmt.Errorf("%s: no such organisation, user or group (or hidden from these credentials)", org)
		}
		if err != nil {
			return nil, err
		}
		for _, r := range repos {
			if !seen[r.FullPath] {
				seen[r.FullPath] = true
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// hasDocs reports whether one of the documentation roots exists.
func hasDocs(ctx context.Context, d dialect, r listedRepo, paths []string) (bool, error) {
	for _, p := range paths {
		ok, err := d.hasPath(ctx, r, strings.Trim(p, "/"))
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// decision is what a previous scan decided about one repository.
type decision struct {
	branch, updatedAt string
	taken, hook       bool
}

// decisions indexes a previous scan's decisions, none when the forge's
// settings changed since.
func decisions(prev *ForgeState, settings string) map[string]decision {
	out := map[string]decision{}
	if prev == nil || prev.Settings != settings {
		return out
	}
	for _, r := range prev.Repositories {
		out[r.FullPath] = decision{branch: r.Branch, updatedAt: r.UpdatedAt, taken: true, hook: r.Hook}
	}
	for _, r := range prev.Seen {
		out[r.FullPath] = decision{branch: r.Branch, updatedAt: r.UpdatedAt}
	}
	return out
}

// cloneURL is where a listed repository is cloned from: its SSH URL when
// the forge's credentials are an SSH key (and the forge gave one), else
// its HTTP(S) URL.
func cloneURL(r listedRepo, useSSH bool) string {
	if useSSH && r.SSHURL != "" {
		return r.SSHURL
	}
	return r.HTTPURL
}

func (st *ForgeState) warn(msg string) {
	if len(st.Warnings) < maxWarnings {
		st.Warnings = append(st.Warnings, msg)
	}
}

func (s *Scanner) client(cfg *config.Config) *client {
	hc := s.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: requestTimeout}
	}
	wait := s.MaxRateWait
	if wait <= 0 {
		wait = DefaultMaxRateWait
	}
	c := newClient(hc, gitx.PolicyFor(cfg.Build), wait)
	if s.sleep != nil {
		c.sleep = s.sleep
	}
	return c
}

func (s *Scanner) pathChecks() int {
	if s.PathChecks > 0 {
		return s.PathChecks
	}
	return DefaultPathChecks
}
