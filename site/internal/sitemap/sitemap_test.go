package sitemap

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// urlset is the protocol's document, read back as a crawler would.
type urlset struct {
	URLs []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	} `xml:"url"`
}

// TestTheSitemapListsEveryPageWithItsChange reads the written sitemap as
// XML: every page, absolute, with its change time when known; robots.txt
// names the sitemap under the site's path.
func TestTheSitemapListsEveryPageWithItsChange(t *testing.T) {
	dir := t.TempDir()
	changed := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("x", 3600))
	files, err := Write(dir, "https://docs.example.com/handbook/", []Entry{
		{URL: "/handbook/", Changed: changed},
		{URL: "/handbook/docs/a&b/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(files, " ") != "sitemap.xml robots.txt" {
		t.Errorf("files %q", files)
	}
	data, err := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var set urlset
	if err := xml.Unmarshal(data, &set); err != nil {
		t.Fatalf("sitemap.xml is not XML: %v\n%s", err, data)
	}
	if len(set.URLs) != 2 || set.URLs[0].Loc != "https://docs.example.com/handbook/" || set.URLs[0].LastMod != "2026-03-04T04:06:07Z" ||
		set.URLs[1].Loc != "https://docs.example.com/handbook/docs/a&b/" || set.URLs[1].LastMod != "" {
		t.Errorf("sitemap %+v", set.URLs)
	}
	robots, _ := os.ReadFile(filepath.Join(dir, "robots.txt"))
	if !strings.Contains(string(robots), "Sitemap: https://docs.example.com/handbook/sitemap.xml\n") {
		t.Errorf("robots.txt = %q", robots)
	}
}

// TestALargeSiteGetsASitemapIndex: past the protocol's 50,000 addresses,
// sitemap.xml is an index of parts, none over the limit.
func TestALargeSiteGetsASitemapIndex(t *testing.T) {
	dir := t.TempDir()
	pages := make([]Entry, maxURLs+3)
	for i := range pages {
		pages[i].URL = fmt.Sprintf("/docs/p%d/", i)
	}
	files, err := Write(dir, "https://d.example/", pages)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(files, " ") != "sitemap-1.xml sitemap-2.xml sitemap.xml robots.txt" {
		t.Fatalf("files %q", files)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "sitemap.xml"))
	if !strings.Contains(string(index), "<sitemapindex") || !strings.Contains(string(index), "<loc>https://d.example/sitemap-2.xml</loc>") {
		t.Errorf("index %s", index)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "sitemap-2.xml"))
	var set urlset
	if err := xml.Unmarshal(second, &set); err != nil || len(set.URLs) != 3 {
		t.Errorf("second part: %d addresses, %v", len(set.URLs), err)
	}
}
