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
	watch, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	var mu sync.Mutex
	largest := map[string]int{} // subject kind → largest payload
	seen, records := 0, 0
	if _, err := watch.Subscribe(">", func(m *nats.Msg) {
		if strings.HasPrefix(m.Subject, "_INBOX.") || strings.HasPrefix(m.Subject, "$JS.") {
			return // replies, the API
		}
		kind := m.Subject
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
			mu.Lock()
			defer mu.Unlock()
			records++
			if meta.Size > largest["artifact record"] {
				largest["artifact record"] = meta.Size
			}
			return
		case strings.HasPrefix(kind, "$KV."):
			parts := strings.SplitN(kind, ".", 3)
			kind = "$KV." + parts[1]
		default:
			kind = strings.TrimPrefix(kind, "bounded.")
		}
		mu.Lock()
		defer mu.Unlock()
		seen++
		if len(m.Data) > largest[kind] {
			largest[kind] = len(m.Data)
		}
	}); err != nil {
		t.Fatal(err)
	}
	watch.Flush()

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

	watch.Flush()
	mu.Lock()
	defer mu.Unlock()
	if seen == 0 || largest["docweave.site.rendered"] == 0 || largest["artifact record"] == 0 || largest["docweave.build.finished"] == 0 {
		t.Fatalf("the subscriber saw %d messages: %v", seen, largest)
	}
	for kind, n := range largest {
		t.Logf("largest %s: %d bytes", kind, n)
		if n > sizeBound {
			t.Errorf("a %s message is %d bytes, over the bound of %d", kind, n, sizeBound)
		}
	}
	if records == 0 {
		t.Fatal("the subscriber saw no artifact record")
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
