package direct

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/report"
)

// sizeBound is what every message and every key-value or artifact record
// of the build below must stay within. It does not depend on the site:
// the build has 20,100 pages and 10,000 issues, whose lists alone would
// take megabytes; the largest message is build.finished, whose report
// carries at most report.MaxCarriedIssues issues (26 KB here).
const sizeBound = 64 << 10

// TestMessagesAndRecordsStayBoundedWhateverTheSite builds, through an
// external broker, one repository whose pages hold 10,000 links to pages
// that do not exist and one of 20,000 pages, and measures every message
// the broker carries (pipeline events and key-value writes) and every
// record of the artifact store. Before lists travelled by reference the
// build failed: site.rendered outgrew the broker's 1 MB, and the unit
// record of the first repository its 1 MB bound.
func TestMessagesAndRecordsStayBoundedWhateverTheSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 20,100 pages")
	}
	ns := startBroker(t)
	sizes := watchSizes(t, ns.ClientURL(), "bounded")

	broken := map[string]string{}
	for p := range 100 {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: Page %d\n---\n", p)
		for l := range 100 {
			fmt.Fprintf(&b, "See [the missing part %d](missing-%d-%d.md).\n\n", l, p, l)
		}
		broken[fmt.Sprintf("docs/page-%03d.md", p)] = b.String()
	}
	many := map[string]string{}
	for p := range 20000 {
		many[fmt.Sprintf("docs/part-%03d/page-%05d.md", p/100, p)] = fmt.Sprintf("# Page %d\n\nShort.\n", p)
	}
	cfg := config.Default()
	cfg.Repositories = []config.Repository{
		{Name: "broken", URL: gittest.NewRepo(t, broken).FileURL()},
		{Name: "many", URL: gittest.NewRepo(t, many).FileURL()},
	}
	cfg.Build.Limits.MaxFiles = 30000
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Broker.URL = ns.ClientURL()
	cfg.Site.Name = "bounded"

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	rep, err := Build(ctx, &cfg, Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.StaticRendered || rep.RenderedPages < 20100 {
		t.Fatalf("build %s: %d pages rendered, want 20,100", rep.Outcome, rep.RenderedPages)
	}
	unresolved := 0
	for _, c := range rep.IssueCounts {
		if c.Code == report.CodeLinkUnresolved {
			unresolved += c.Count
		}
	}
	if unresolved != 10000 {
		t.Fatalf("the returned report counts %d LINK_UNRESOLVED, want 10,000", unresolved)
	}
	// The report on disk keeps every issue.
	onDisk := readReport(t, cfg.Output.Directory)
	if n := countCode(onDisk.Issues, report.CodeLinkUnresolved); n != 10000 {
		t.Fatalf("build-report.json holds %d LINK_UNRESOLVED issues, want every one of 10,000", n)
	}

	sizes.check(t, sizeBound, "docweave.site.rendered", "docweave.build.finished", "artifact record")
}

// sizes is what a subscriber to every subject of a broker saw: the
// largest payload per kind of message (a pipeline subject, a key-value
// bucket's writes, the artifact store's records).
type sizes struct {
	watch   *nats.Conn
	mu      sync.Mutex
	largest map[string]int
	seen    int
}

// watchSizes subscribes to every subject of the broker at url; site is
// the scope of the build's subjects.
func watchSizes(t *testing.T, url, site string) *sizes {
	t.Helper()
	watch, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(watch.Close)
	s := &sizes{watch: watch, largest: map[string]int{}}
	if _, err := watch.Subscribe(">", func(m *nats.Msg) {
		if strings.HasPrefix(m.Subject, "_INBOX.") || strings.HasPrefix(m.Subject, "$JS.") {
			return // replies, the API
		}
		kind, size := m.Subject, len(m.Data)
		switch {
		case strings.HasPrefix(kind, "$O."):
			// The artifact store's objects: trees are files, chunked;
			// a record is an object named record/<name>, whose size its
			// description gives.
			var meta struct {
				Name string `json:"name"`
				Size int    `json:"size"`
			}
			if !strings.Contains(kind, ".M.") || json.Unmarshal(m.Data, &meta) != nil || !strings.HasPrefix(meta.Name, "record/") {
				return
			}
			kind, size = "artifact record", meta.Size
		case strings.HasPrefix(kind, "$KV."):
			parts := strings.SplitN(kind, ".", 3)
			kind = "$KV." + parts[1]
		default:
			kind = strings.TrimPrefix(kind, site+".")
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.seen++
		if size > s.largest[kind] {
			s.largest[kind] = size
		}
	}); err != nil {
		t.Fatal(err)
	}
	watch.Flush()
	return s
}

// check fails the test for any kind of message over bound, and when one
// of the kinds named was never seen (the test would prove nothing).
func (s *sizes) check(t *testing.T, bound int, kinds ...string) {
	t.Helper()
	s.watch.Flush()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range kinds {
		if s.largest[k] == 0 {
			t.Fatalf("the subscriber saw no %s among %d messages: %v", k, s.seen, s.largest)
		}
	}
	for kind, n := range s.largest {
		t.Logf("largest %s: %d bytes", kind, n)
		if n > bound {
			t.Errorf("a %s message is %d bytes, over the bound of %d", kind, n, bound)
		}
	}
}

func countCode(issues []report.Issue, code string) int {
	n := 0
	for _, is := range issues {
		if is.Code == code {
			n++
		}
	}
	return n
}

func readReport(t *testing.T, dir string) report.Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "build-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// unitsBound is the bound of the test below. Each unit has a record of its
// own in the joins and the saved state, outcome lists travel by reference,
// and build.finished carries at most report.MaxCarriedRepositories
// repositories: nothing grows with the number of units but a bit each in
// a join's head.
const unitsBound = 64 << 10

// TestMessagesAndRecordsStayBoundedWhateverTheNumberOfUnits builds 400
// repositories in one site through an external broker. Before the joins
// kept a record per unit and outcome lists travelled by reference,
// site.rendered carried every unit's outcome twice and the joins' records
// held them all: this build failed, its site.rendered 326,117 bytes, over
// the 256 KiB every message is held to (and at about a thousand units
// over the broker's 1 MB).
func TestMessagesAndRecordsStayBoundedWhateverTheNumberOfUnits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 400 repositories")
	}
	const repos = 400
	ns := startBroker(t)
	sizes := watchSizes(t, ns.ClientURL(), "units")
	url := gittest.NewRepo(t, map[string]string{"docs/index.md": "# Home\n\nA page of a repository among many.\n"}).FileURL()
	cfg := config.Default()
	for i := range repos {
		cfg.Repositories = append(cfg.Repositories, config.Repository{Name: fmt.Sprintf("repository-with-a-long-name-%03d", i), URL: url})
	}
	cfg.Output.Directory = filepath.Join(t.TempDir(), "site")
	cfg.Broker.URL = ns.ClientURL()
	cfg.Site.Name = "units"

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	rep, err := Build(ctx, &cfg, Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != report.OutcomeSuccess || rep.ClonedRepositories != repos || rep.RenderedPages < repos {
		t.Fatalf("build %s: %d cloned, %d pages; want %d of each", rep.Outcome, rep.ClonedRepositories, rep.RenderedPages, repos)
	}
	if onDisk := readReport(t, cfg.Output.Directory); len(onDisk.Repositories) != repos || onDisk.RepositoriesOmitted != 0 {
		t.Fatalf("build-report.json names %d repositories (%d omitted), want all %d", len(onDisk.Repositories), onDisk.RepositoriesOmitted, repos)
	}
	for _, name := range []string{"repository-with-a-long-name-000", fmt.Sprintf("repository-with-a-long-name-%03d", repos-1)} {
		if _, err := os.Stat(filepath.Join(cfg.Output.Directory, "public", "docs", name, "index.html")); err != nil {
			t.Fatalf("%s is not on the site: %v", name, err)
		}
	}
	sizes.check(t, unitsBound, "docweave.build.content_ready", "docweave.site.rendered", "docweave.build.finished", "$KV.units_docweave-builds")
}
