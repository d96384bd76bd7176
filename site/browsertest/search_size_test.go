package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/httpsrv/docs"
	"github.com/docweave/docweave/site"
)

// Issue 18's budget for search on a large site: the first search on a
// site of 5,000 pages downloads at most 300 KB, compressed.
const (
	largeSiteRepos    = 20
	largeSitePerRepo  = 250
	firstSearchBudget = 300 << 10
)

// proseParagraphs are the prose paragraphs of docweave's own docs/: real
// documentation text, so the search index has a real vocabulary (tables,
// code and headings left out).
func proseParagraphs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) < 10 {
		t.Fatalf("docweave's docs/: %d files (%v)", len(files), err)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inCode := false
		for _, para := range strings.Split(string(data), "\n\n") {
			para = strings.TrimSpace(para)
			if strings.Count(para, "```")%2 == 1 {
				inCode = !inCode
				continue
			}
			if inCode || para == "" || strings.ContainsAny(para[:1], "#|`!<-*>[{") {
				continue
			}
			out = append(out, strings.ReplaceAll(para, "\n", " "))
		}
	}
	return out
}

// renderLargeSite renders 5,000 pages of real prose: 20 repositories of
// 250 pages in five folders each, every page a different run of
// paragraphs.
func renderLargeSite(t *testing.T) string {
	t.Helper()
	paras := proseParagraphs(t)
	project := filepath.Join(t.TempDir(), "project")
	var repos []site.Repository
	n := 0
	for r := 0; r < largeSiteRepos; r++ {
		name := fmt.Sprintf("repo%02d", r)
		repos = append(repos, site.Repository{Name: name, ContentPath: name})
		for p := 0; p < largeSitePerRepo; p++ {
			var body strings.Builder
			pick := rand.New(rand.NewPCG(uint64(n), 18))
			firstPara := paras[pick.IntN(len(paras))]
			body.WriteString(firstPara + "\n\n")
			for body.Len() < 2500 {
				body.WriteString(paras[pick.IntN(len(paras))] + "\n\n")
			}
			first := strings.Fields(firstPara)
			title := strings.Trim(strings.Join(first[:min(4, len(first))], " "), ".,:;`*()")
			file := filepath.Join(project, "content", name, fmt.Sprintf("part%d", p%5), fmt.Sprintf("page%03d.md", p))
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			page := fmt.Sprintf("---\ntitle: %q\ntags: [t%d]\n---\n\n%s", fmt.Sprintf("%s %d", title, n), n%40, body.String())
			if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	publish := filepath.Join(t.TempDir(), "public")
	logs := &bytes.Buffer{}
	start := time.Now()
	res, err := site.Render(context.Background(), site.Options{
		ProjectDir:   project,
		PublishDir:   publish,
		Generator:    config.Generator{Title: "Large Docs", BaseURL: "/"},
		Repositories: repos,
		Logger:       zerolog.New(logs),
	})
	if err != nil {
		t.Fatalf("render the large site: %v\n%s", err, logs)
	}
	t.Logf("rendered %d pages in %s", res.Pages, time.Since(start).Round(time.Millisecond))
	return publish
}

// TestFirstSearchOnALargeSite measures what the first search of a reader
// downloads on a site of 5,000 pages served by the docs server (which
// compresses), for a few queries, each in a fresh page with the browser's
// cache off: the bytes of the index's pieces as sent.
func TestFirstSearchOnALargeSite(t *testing.T) {
	publish := renderLargeSite(t)
	// What one index file for the whole site, as docweave wrote before,
	// would weigh compressed: every piece in one gzip stream.
	var oneFile countingWriter
	zw := gzip.NewWriter(&oneFile)
	var whole int64
	err := filepath.Walk(filepath.Join(publish, "search"), func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		whole += int64(len(data))
		zw.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	zw.Close()
	t.Logf("the whole index: %.1f MB, %.1f MB compressed in one file", float64(whole)/(1<<20), float64(oneFile)/(1<<20))
	root := "http://" + listen(t, docs.New(docs.Options{PublicDir: publish, Log: zerolog.Nop()}))
	ctx := newBrowser(t)
	p := page{t, ctx}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatal(err)
	}
	piece := regexp.MustCompile(`/search/(index\.json|pages\.|words\.|texts\.)`)
	for _, query := range []string{"configuration", "webhook secret", "nats cluster", "versions"} {
		p.open(root + "/docs/repo03/part2/page010/")
		p.eval(`performance.clearResourceTimings(), ""`)
		p.do("search "+query, chromedp.SendKeys(`#dw-search-input`, query), chromedp.WaitVisible(`#dw-search-results a`))
		got := p.eval(`JSON.stringify(performance.getEntriesByType("resource").filter(e => e.name.includes("/search/")).map(e => [e.name, e.encodedBodySize]))`)
		var files, bytes int64
		kinds := map[string]int64{}
		for _, m := range regexp.MustCompile(`\["([^"]+)",(\d+)\]`).FindAllStringSubmatch(got, -1) {
			kind := piece.FindStringSubmatch(m[1])
			if kind == nil {
				t.Errorf("the search loaded %s, not a piece of the index", m[1])
				continue
			}
			var size int64
			fmt.Sscan(m[2], &size)
			files++
			bytes += size
			kinds[strings.TrimSuffix(kind[1], ".")] += size
		}
		t.Logf("first search for %q on %d pages: %d files, %.1f KB compressed (manifest %.1f, books %.1f, words %.1f, texts %.1f)",
			query, largeSiteRepos*largeSitePerRepo, files, float64(bytes)/1024, float64(kinds["index.json"])/1024,
			float64(kinds["pages"])/1024, float64(kinds["words"])/1024, float64(kinds["texts"])/1024)
		if files < 3 {
			t.Errorf("the search for %q loaded %d files; want the manifest, books, words and texts", query, files)
		}
		if bytes > firstSearchBudget {
			t.Errorf("the first search for %q downloaded %d bytes, over the budget of %d", query, bytes, firstSearchBudget)
		}
	}
}

// countingWriter counts the bytes written to it.
type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// TestSearchAcrossANewPublish: a reader who searched keeps the page open
// while the site is published anew, which removes the pieces of the index
// the old manifest names. Back in the search box, the reader searches the
// new site.
func TestSearchAcrossANewPublish(t *testing.T) {
	served := renderFixture(t, "/", nil)
	next := renderFixtureWith(t, "/", nil, map[string]string{
		"beta/usage/sprockets.md": "---\ntitle: Sprocket tuning\n---\n\nSprockets arrive with the new publish.\n",
	})
	// The docs server, which asks browsers to revalidate the manifest.
	root := "http://" + listen(t, docs.New(docs.Options{PublicDir: served, Log: zerolog.Nop()}))
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.open(root + "/docs/alpha/intro/")
	p.do("search", chromedp.SendKeys(`#dw-search-input`, "endpoints"), chromedp.WaitVisible(`#dw-search-results a`))

	// Publish: the new site takes the old one's place.
	if err := os.Rename(served, served+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, served); err != nil {
		t.Fatal(err)
	}
	// The reader comes back to the search box.
	p.do("search again", chromedp.SendKeys(`#dw-search-input`, kb.Escape), chromedp.Click(`main h1`),
		chromedp.Click(`#dw-search-input`), chromedp.SendKeys(`#dw-search-input`, "sprockets arrive"),
		chromedp.WaitVisible(`#dw-search-results li`))
	p.waitFor(`document.querySelector("#dw-search-results li .search-title") !== null`, "a result from the new site")
	if got := p.text(`#dw-search-results li:first-child .search-title`); got != "Sprocket tuning" {
		t.Errorf("first result after the publish = %q, want the new page; results:\n%s", got, p.text(`#dw-search-results`))
	}
}
