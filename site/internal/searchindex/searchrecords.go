package searchindex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gohugoio/hugo/tpl"
)

// The theme's search template (home.searchindex.json) writes a render's
// search entries as records: the entry's fields as a JSON object and the
// page's body as HTML, each framed by its length in bytes,
//
//	<bytes of the fields> <bytes of the body>\n<fields><body>
//
// and the entry's text is made here, in Go, from the body. Making it in
// the template (plainify, htmlUnescape, substr over runes, jsonify of the
// text) cost more than everything else the search entries need; the text
// made here is the same, character for character.

// searchBodyRunes is how much of a body the text is made from (the
// template cuts the body there too): HTML enough for searchTextRunes of
// text even where highlighted code multiplies the markup.
const searchBodyRunes = 48000

// searchTextRunes is how long an entry's text is at most, so that the
// index of a large site stays a reasonable download.
const searchTextRunes = 3000

// searchWordRunes is how much of a page's text its words are indexed
// from: past the text a result shows, so that a word further down a long
// page finds it, while the index stays bounded per page.
const searchWordRunes = 12000

// ReadRecords reads the records of a render's search file into
// entries, each with its text made from its body.
func ReadRecords(data []byte) ([]Entry, error) {
	var entries []Entry
	var bodies [][]byte // parts of data: the file is held once
	for n := 1; len(data) > 0; n++ {
		header, rest, ok := bytes.Cut(data, []byte{'\n'})
		if !ok {
			return nil, fmt.Errorf("search record %d: no header line", n)
		}
		fieldsLen, bodyLen, err := recordLengths(string(header))
		if err != nil {
			return nil, fmt.Errorf("search record %d: header %q: %w", n, header, err)
		}
		if fieldsLen+bodyLen > len(rest) {
			return nil, fmt.Errorf("search record %d: %d bytes announced, %d left", n, fieldsLen+bodyLen, len(rest))
		}
		var e Entry
		if err := json.Unmarshal(rest[:fieldsLen], &e); err != nil {
			return nil, fmt.Errorf("search record %d: fields: %w", n, err)
		}
		entries = append(entries, e)
		bodies = append(bodies, rest[fieldsLen:fieldsLen+bodyLen])
		data = rest[fieldsLen+bodyLen:]
	}
	// The texts are made on every core: a large site's are seconds of
	// work on one, after Hugo's parallel render has ended.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(entries)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(entries); i = int(next.Add(1) - 1) {
				entries[i].Text, entries[i].More = searchText(string(bodies[i]))
				entries[i].Headings = searchHeadings(string(bodies[i]))
			}
		})
	}
	wg.Wait()
	return entries, nil
}

// recordLengths reads a record's header: two byte counts.
func recordLengths(header string) (int, int, error) {
	a, b, ok := strings.Cut(header, " ")
	if !ok {
		return 0, 0, fmt.Errorf("expected two byte counts")
	}
	fields, err := strconv.Atoi(a)
	if err != nil || fields < 0 {
		return 0, 0, fmt.Errorf("expected two byte counts")
	}
	body, err := strconv.Atoi(b)
	if err != nil || body < 0 {
		return 0, 0, fmt.Errorf("expected two byte counts")
	}
	return fields, body, nil
}

// searchText is the text of a page's body HTML as search shows and
// matches it: tags removed as Hugo's plainify removes them, character
// references decoded, line breaks as spaces, at most searchTextRunes
// characters; and the words of the rest of the text read (up to
// searchWordRunes characters) that the text lacks, for the word index.
func searchText(body string) (string, string) {
	s := firstRunes(body, searchBodyRunes)
	s = html.UnescapeString(tpl.StripHTML(s))
	s = strings.TrimSpace(strings.ReplaceAll(s, "\n", " "))
	text := firstRunes(s, searchTextRunes)
	rest := ""
	if strings.HasPrefix(s, text) { // else not UTF-8: firstRunes made it so
		// The rest starts with the whole word the cut falls in.
		rest = s[strings.LastIndexFunc(text, notWordRune)+1:]
	}
	return text, moreWords(text, firstRunes(rest, searchWordRunes-searchTextRunes))
}

// moreWords lists, space-separated, the distinct words of rest that text
// does not hold.
func moreWords(text, rest string) string {
	if rest == "" {
		return ""
	}
	have := map[string]bool{}
	for _, w := range textWords(text) {
		have[w] = true
	}
	var more []string
	for _, w := range textWords(rest) {
		if !have[w] {
			more = append(more, w)
		}
	}
	return strings.Join(more, " ")
}

// firstRunes is the first n characters of s, the way Hugo's substr cuts
// (bytes that are not UTF-8 count as a character each and become U+FFFD).
func firstRunes(s string, n int) string {
	if !utf8.ValidString(s) {
		r := []rune(s)
		if len(r) > n {
			r = r[:n]
		}
		return string(r)
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}
