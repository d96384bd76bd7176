package preview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Options configure a Manager.
type Options struct {
	// Builder builds each preview.
	Builder *Builder
	// Dir holds the previews, one directory each (<output>/.docweave/previews);
	// the Manager creates it and removes only the previews' directories.
	Dir string
	// TTL and Max are daemon.previews.ttl and .max.
	TTL time.Duration
	Max int
	// PublicURL is daemon.previews.public_url ("" for paths).
	PublicURL string
	// Reporter, when set, is told of every preview that starts building
	// and every build's outcome (daemon.previews.report).
	Reporter Reporter
	// Log receives the previews' expiry, removal and failures.
	Log zerolog.Logger
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

// Reporter tells a forge about a preview's builds.
type Reporter interface {
	Report(ctx context.Context, target ReportTarget, st Status) error
}

// ErrNotFound is returned for an id no preview has.
var ErrNotFound = errors.New("no such preview")

// Manager keeps the previews and builds them, one at a time.
type Manager struct {
	opts  Options
	queue chan string

	mu       sync.Mutex
	previews map[string]*entry
}

// entry is one preview, as recorded in <Dir>/<id>/preview.json.
type entry struct {
	Request Request `json:"request"`
	Status  Status  `json:"status"`
	// Site is the directory below <Dir>/<id> that holds the site served;
	// "" before the first build succeeded.
	Site string `json:"site,omitempty"`
	// Generation counts the builds asked for; a build whose generation is
	// no longer the latest is thrown away.
	Generation int  `json:"generation"`
	queued     bool // waiting in the queue
}

// Open reads the previews recorded in opts.Dir; those that were building
// when the process stopped are built again once Run starts.
func Open(opts Options) (*Manager, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("previews directory: %w", err)
	}
	// Room for every preview and as many ids of removed ones, which
	// leave the queue when their turn comes.
	m := &Manager{opts: opts, previews: map[string]*entry{}, queue: make(chan string, 2*opts.Max+2)}
	dirs, err := os.ReadDir(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("previews directory: %w", err)
	}
	for _, d := range dirs {
		if !d.IsDir() || !ValidID(d.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(opts.Dir, d.Name(), "preview.json"))
		var e entry
		if err != nil || json.Unmarshal(data, &e) != nil || e.Status.ID != d.Name() {
			// A preview whose record was never written whole.
			m.removeDir(d.Name())
			continue
		}
		m.previews[e.Status.ID] = &e
	}
	return m, nil
}

// Run builds the queued previews and removes the expired ones until ctx
// ends.
func (m *Manager) Run(ctx context.Context) {
	m.mu.Lock()
	for id, e := range m.previews {
		if e.Status.State == StateBuilding && len(m.queue) < cap(m.queue) {
			e.queued = true
			m.queue <- id
		}
	}
	m.mu.Unlock()
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			m.expire()
		case id := <-m.queue:
			m.buildOne(ctx, id)
		}
	}
}

// Request creates the preview req asks for, or rebuilds the one with its
// key, and queues its build.
func (m *Manager) Request(req Request) (Status, error) {
	if _, ok := m.opts.Builder.Config.Repository(req.Repository); !ok {
		return Status{}, fmt.Errorf("%w %q: previews show a configured repository", ErrUnknownRepository, req.Repository)
	}
	id := idOf(req.Repository, req.key())
	m.expire()
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opts.Now()
	e, ok := m.previews[id]
	if (!ok || !e.queued) && len(m.queue) == cap(m.queue) {
		return Status{}, fmt.Errorf("too many previews are waiting to be built; try again later")
	}
	if ok && e.Status.State == StateReady && req.Commit != "" && req.Commit == e.Status.Commit &&
		req.Ref == e.Request.Ref && req.CloneURL == e.Request.CloneURL && req.Untrusted == e.Request.Untrusted {
		// The same head again (a request's title edited, say): nothing to
		// build; it lives on from now.
		e.Status.RequestedAt, e.Status.ExpiresAt = now, now.Add(m.opts.TTL)
		if err := m.saveLocked(e); err != nil {
			return Status{}, err
		}
		return e.Status, nil
	}
	if !ok {
		for len(m.previews) >= m.opts.Max {
			m.removeOldestLocked()
		}
		e = &entry{Status: Status{ID: id, URL: m.URL(id), LinksBroken: []BrokenLink{}}}
		m.previews[id] = e
	}
	e.Request = req
	e.Generation++
	e.Status.Repository, e.Status.Ref, e.Status.Title, e.Status.Untrusted = req.Repository, req.Ref, req.Title, req.Untrusted
	e.Status.State, e.Status.Error, e.Status.Commit = StateBuilding, "", req.Commit
	e.Status.RequestedAt, e.Status.ExpiresAt = now, now.Add(m.opts.TTL)
	if err := m.saveLocked(e); err != nil {
		return Status{}, err
	}
	if !e.queued {
		m.queue <- id // room checked above, under the lock
		e.queued = true
	}
	st := e.Status
	go m.report(req, st)
	return st, nil
}

// URL is where preview id is served.
func (m *Manager) URL(id string) string {
	return strings.TrimSuffix(m.opts.PublicURL, "/") + "/previews/" + id + "/"
}

// Get returns the status of preview id.
func (m *Manager) Get(id string) (Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.previews[id]
	if !ok {
		return Status{}, false
	}
	return e.Status, true
}

// List returns every preview's status, the newest request first.
func (m *Manager) List() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Status, 0, len(m.previews))
	for _, e := range m.previews {
		out = append(out, e.Status)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RequestedAt.After(out[j].RequestedAt) })
	return out
}

// Delete removes preview id and its files.
func (m *Manager) Delete(id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.previews[id]; !ok {
		return ErrNotFound
	}
	m.removeLocked(id)
	return nil
}

// DeleteRequest removes the preview that req (by its key) made, if any:
// a pull request closed or merged.
func (m *Manager) DeleteRequest(req Request) bool {
	return m.Delete(idOf(req.Repository, req.key())) == nil
}

// Served is what the docs server needs of a ready preview.
type Served struct {
	// Dir is the preview's site.
	Dir                            string
	Repository, Ref, Commit, Title string
	Untrusted                      bool
	Building                       bool // a newer build is under way
}

// Site returns the site of preview id, when one was built.
func (m *Manager) Site(id string) (Served, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.previews[id]
	if !ok || e.Site == "" {
		return Served{}, false
	}
	return Served{Dir: filepath.Join(m.opts.Dir, id, e.Site), Repository: e.Status.Repository, Ref: e.Status.Ref,
		Commit: e.Status.Commit, Title: e.Status.Title, Untrusted: e.Status.Untrusted, Building: e.Status.State == StateBuilding}, true
}

// buildOne builds preview id's latest request into a new site directory
// and, unless the preview was removed or asked for again meanwhile, swaps
// it in.
func (m *Manager) buildOne(ctx context.Context, id string) {
	m.mu.Lock()
	e, ok := m.previews[id]
	if !ok {
		m.mu.Unlock()
		return
	}
	e.queued = false
	req, gen := e.Request, e.Generation
	m.mu.Unlock()

	site := "site-" + strconv.Itoa(gen)
	publish := filepath.Join(m.opts.Dir, id, site)
	_ = os.RemoveAll(publish)
	res, err := m.opts.Builder.build(ctx, id, req, publish)

	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.previews[id]
	switch {
	case !ok:
		m.removeDir(id) // the preview went while it was built
		return
	case cur != e || e.Generation != gen:
		_ = os.RemoveAll(publish) // a newer build of it follows
		return
	}
	now := m.opts.Now()
	if err != nil {
		_ = os.RemoveAll(publish)
		e.Status.State, e.Status.Error = StateFailed, err.Error()
		m.opts.Log.Warn().Err(err).Str("preview", id).Msg("preview not built")
	} else {
		old := e.Site
		e.Site = site
		e.Status.State, e.Status.Error, e.Status.Commit = StateReady, "", res.Commit
		e.Status.BuiltAt, e.Status.Unit, e.Status.Pages = &now, res.Unit, res.Pages
		e.Status.Changes, e.Status.LinksBroken, e.Status.TimingsMS = &res.Changes, res.Broken, res.Timings
		if e.Status.LinksBroken == nil {
			e.Status.LinksBroken = []BrokenLink{}
		}
		if old != "" && old != site {
			_ = os.RemoveAll(filepath.Join(m.opts.Dir, id, old))
		}
	}
	if err := m.saveLocked(e); err != nil {
		m.opts.Log.Error().Err(err).Str("preview", id).Msg("preview record not saved")
	}
	go m.report(req, e.Status)
}

// report tells the forge of the preview's state, when the request asks
// for it and a reporter is set.
func (m *Manager) report(req Request, st Status) {
	if req.Report == nil || m.opts.Reporter == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.opts.Reporter.Report(ctx, *req.Report, st); err != nil {
		m.opts.Log.Warn().Err(err).Str("preview", st.ID).Msg("preview status not reported to the forge")
	}
}

// expire removes the previews whose time is up.
func (m *Manager) expire() {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.opts.Now()
	for id, e := range m.previews {
		if now.After(e.Status.ExpiresAt) {
			m.opts.Log.Info().Str("preview", id).Msg("preview expired")
			m.removeLocked(id)
		}
	}
}

// removeOldestLocked removes the preview asked for longest ago.
func (m *Manager) removeOldestLocked() {
	var oldest *entry
	for _, e := range m.previews {
		if oldest == nil || e.Status.RequestedAt.Before(oldest.Status.RequestedAt) {
			oldest = e
		}
	}
	if oldest != nil {
		m.opts.Log.Info().Str("preview", oldest.Status.ID).Int("max", m.opts.Max).Msg("oldest preview removed to make room")
		m.removeLocked(oldest.Status.ID)
	}
}

// removeLocked forgets preview id and removes its directory; a build
// under way throws its site away when it ends.
func (m *Manager) removeLocked(id string) {
	delete(m.previews, id)
	m.removeDir(id)
}

// removeDir removes <Dir>/<id>: only an id this package makes.
func (m *Manager) removeDir(id string) {
	if !ValidID(id) {
		return
	}
	if err := os.RemoveAll(filepath.Join(m.opts.Dir, id)); err != nil {
		m.opts.Log.Warn().Err(err).Str("preview", id).Msg("preview directory not removed")
	}
}

// saveLocked writes e's record whole (a temporary file, renamed).
func (m *Manager) saveLocked(e *entry) error {
	dir := filepath.Join(m.opts.Dir, e.Status.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("preview %s: %w", e.Status.ID, err)
	}
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "preview.json.tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("preview %s: %w", e.Status.ID, err)
	}
	return os.Rename(tmp, filepath.Join(dir, "preview.json"))
}
