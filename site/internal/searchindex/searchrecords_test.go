package searchindex

import (
	"fmt"
	"strings"
	"testing"
)

// record frames fields and body the way home.searchindex.json does.
func record(fields, body string) string {
	return fmt.Sprintf("%d %d\n%s%s", len(fields), len(body), fields, body)
}

func TestSearchRecordsAreFramedByTheirLengths(t *testing.T) {
	// A body that holds what looks like the start of another record, and
	// a byte that is not UTF-8, must stay inside its own record.
	tricky := "<p>line one</p>\n3 4\n{}<p>x</p>\n<p>caf\xe9 &amp; more</p>"
	data := record(`{"title":"One","url":"/docs/a/one/","repository":"a","section":"","tags":["x",2]}`, tricky) +
		record(`{"title":"Two","url":"/docs/a/two/","repository":"a","section":"Guide","tags":[],"version":"v2","versionIsDefault":true,"versionRank":1}`, "")
	entries, err := ReadRecords([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("got %d entries, want 2: %+v", len(entries), entries)
	}
	one, two := entries[0], entries[1]
	if one.Title != "One" || len(one.Tags) != 2 || string(one.Tags[1]) != "2" {
		t.Errorf("first entry's fields: %+v", one)
	}
	if want := "line one 3 4 {}x caf\uFFFD & more"; one.Text != want {
		t.Errorf("first entry's text = %q, want %q", one.Text, want)
	}
	if two.Version != "v2" || !two.VersionIsDefault || two.VersionRank != 1 || two.Text != "" {
		t.Errorf("second entry: %+v", two)
	}
}

func TestSearchRecordsThatAreCutShortAreRefused(t *testing.T) {
	full := record(`{"title":"One"}`, "<p>body</p>")
	for _, data := range []string{full[:len(full)-1], "12 x\n", "no header", "-1 0\n"} {
		if _, err := ReadRecords([]byte(data)); err == nil || !strings.Contains(err.Error(), "search record 1") {
			t.Errorf("%q: err = %v, want one naming record 1", data, err)
		}
	}
}

func TestSearchTextIsCutInCharacters(t *testing.T) {
	body := "<p>" + strings.Repeat("é", searchTextRunes+10) + "</p>"
	text, _ := searchText(body)
	if n := len([]rune(text)); n != searchTextRunes {
		t.Errorf("text of %d characters, want %d", n, searchTextRunes)
	}
	// The body is read as far as its first searchBodyRunes characters.
	long := strings.Repeat("<b>x</b>", searchBodyRunes) + "<p>tail</p>"
	if text, more := searchText(long); strings.Contains(text+more, "tail") {
		t.Error("text made from beyond the body's first characters")
	}
	if got := firstRunes("ab\xffcd", 3); got != "ab\uFFFD" {
		t.Errorf("firstRunes over a byte that is not UTF-8 = %q", got)
	}
}

// BenchmarkReadSearchRecords reads the records of 1,000 pages of about
// 10 KB of HTML each; run with -cpu 1,2 to see the texts made in parallel.
func BenchmarkReadSearchRecords(b *testing.B) {
	var body strings.Builder
	for body.Len() < 10<<10 {
		body.WriteString(`<p>The <a href="/docs/x/">daemon</a> keeps the site current &amp; <code>fast</code>.</p>` + "\n")
	}
	var data strings.Builder
	for i := range 1000 {
		data.WriteString(record(fmt.Sprintf(`{"title":"Page %d","url":"/docs/a/p%d/","repository":"a","section":"","tags":[]}`, i, i), body.String()))
	}
	b.SetBytes(int64(data.Len()))
	for b.Loop() {
		if _, err := ReadRecords([]byte(data.String())); err != nil {
			b.Fatal(err)
		}
	}
}
