package searchindex

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestHeadingsAreTheTextOfH2ToH6(t *testing.T) {
	body := `<p>intro</p><h2 id="a">Counter <code>kinds</code></h2><p>x</p><h3>Gauge &amp; more</h3><h1>not this</h1><h6 class="z">Last</h6>`
	if got, want := searchHeadings(body), "Counter kinds Gauge & more Last"; got != want {
		t.Errorf("searchHeadings = %q, want %q", got, want)
	}
	long := strings.Repeat("<h2>heading words here</h2>", 200)
	if got := searchHeadings(long); len([]rune(got)) > searchHeadingRunes {
		t.Errorf("headings of a long page hold %d characters, more than %d", len([]rune(got)), searchHeadingRunes)
	}
}

// TestWordsPastTheTextAndInHeadingsAreIndexed: a word only past the
// snippet's text, and a word in a heading, are in the word chunks; the
// heading word is marked as such for its page only.
func TestWordsPastTheTextAndInHeadingsAreIndexed(t *testing.T) {
	filler := strings.Repeat("filler ", searchTextRunes/7+10)
	body := fmt.Sprintf("<p>%s</p>\n<h2>Histogram</h2>\n<p>the farword is here</p>", filler)
	records := ""
	for i, b := range []string{body, "<p>histogram in passing</p>"} {
		fields := fmt.Sprintf(`{"title":"P%d","url":"/docs/r/p%d/","repository":"r","section":"","tags":[]}`, i, i)
		records += fmt.Sprintf("%d %d\n%s%s", len(fields), len(b), fields, b)
	}
	entries, err := ReadRecords([]byte(records))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(entries[0].Text, "farword") {
		t.Fatal("the test's word is in the text: make the filler longer")
	}
	files, err := Compact([][]Entry{entries})
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(files[ManifestFile], &m); err != nil {
		t.Fatal(err)
	}
	pages, heads := map[string][]int{}, map[string][]int{}
	for _, ref := range m.Words {
		var c searchChunkFile
		if err := json.Unmarshal(files["search/"+ref.File], &c); err != nil {
			t.Fatal(err)
		}
		for i, w := range c.Words {
			pages[w] = c.Pages[i]
			heads[w] = c.Heads[fmt.Sprint(i)]
		}
	}
	if got := pages["farword"]; len(got) != 1 || got[0] != 0 {
		t.Errorf("farword (past the text) on pages %v, want [0]", got)
	}
	if got := heads["histogram"]; len(got) != 1 || got[0] != 0 {
		t.Errorf("histogram in a heading on pages %v, want [0] (page 1 has it in passing)", got)
	}
	if got := pages["filler"]; len(got) != 1 {
		t.Errorf("filler on pages %v, want [0]", got)
	}
	if _, ok := pages["er"]; ok {
		t.Error("the end of the word the text's cut falls in is indexed as a word")
	}
	if got := pages["histogram"]; len(got) != 2 {
		t.Errorf("histogram in the text of pages (gaps) %v, want both pages", got)
	}
}
