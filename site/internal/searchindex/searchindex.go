// Package searchindex turns the search records each unit's render writes
// into the site's search index: one book per unit, content-named pieces a
// browser loads as a query needs them.
package searchindex

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// The site's search index is written in pieces, so that the first search
// on a large site downloads a small part of it (docs/theme.md, "Search"):
//
//	search/index.json              the manifest: one book per repository
//	                               version (its pages file and page count)
//	                               and the word chunks, each by its first word
//	search/pages.<hash>.json       a book: its pages' titles, URLs, sections,
//	                               tags and where their texts are
//	search/words.<hash>.json       a run of the words of every page's text, in
//	                               order, each with the pages it occurs in
//	search/texts.<hash>.json       the texts of a run of a book's pages, for
//	                               the snippets under results
//
// Every file but the manifest is named by its content, so a browser keeps
// it for good and a build rewrites only what changed. Pages are numbered
// across the site: book after book in menu order, page after page within
// a book; word chunks refer to pages by that number.

// ManifestFile is the manifest's path in the site; pages name it in
// <meta name="docweave-search-index">.
const ManifestFile = "search/index.json"

// Format is the manifest's format number: a script that finds
// another refuses the index instead of misreading it.
const Format = 1

// searchChunkBytes is about how much of the word index one chunk holds
// (uncompressed JSON): a query word loads the chunk its words are in, so
// smaller chunks mean less to load for a search and more files.
const searchChunkBytes = 24 << 10

// searchTextBytes is about how much text one texts file holds: a result
// loads the file its page's text is in, so smaller files mean less to
// load for a search and more files in the site (each page in a file of
// its own doubled a site's file count).
const searchTextBytes = 8 << 10

// Entry is one page of the search: the fields the theme's search
// template writes (see home.searchindex.json) and the text made from the
// page's HTML (searchrecords.go).
// Version fields are left out for a page of an unversioned repository, as
// the template leaves them out.
type Entry struct {
	Title            string            `json:"title"`
	URL              string            `json:"url"`
	Repository       string            `json:"repository"`
	Section          string            `json:"section"`
	Tags             []json.RawMessage `json:"tags"`
	Text             string            `json:"text"`
	Version          string            `json:"version,omitempty"`
	VersionIsDefault bool              `json:"versionIsDefault,omitempty"`
	VersionRank      int               `json:"versionRank,omitempty"`
	// Headings is the text of the page's headings below its title, from
	// its whole body (the text is cut, the headings are not): a word in a
	// heading ranks its page above one holding it in the text only.
	Headings string `json:"headings,omitempty"`
	// More is the words of the text past Text (which is cut for the
	// snippets) that Text lacks, space-separated: the index holds them.
	More string `json:"more,omitempty"`
}

// Manifest is search/index.json.
type Manifest struct {
	Format int               `json:"format"`
	Books  []searchBookEntry `json:"books"`
	Words  []searchChunkRef  `json:"words"`
}

// searchBookEntry is a book as the manifest lists it: enough to rank its
// pages' versions before loading it.
type searchBookEntry struct {
	Repository       string `json:"repository"`
	Version          string `json:"version,omitempty"`
	VersionIsDefault bool   `json:"versionIsDefault,omitempty"`
	VersionRank      int    `json:"versionRank,omitempty"`
	Pages            int    `json:"pages"`
	File             string `json:"file"`
}

// searchChunkRef names a word chunk by the first word it holds.
type searchChunkRef struct {
	First string `json:"first"`
	File  string `json:"file"`
}

// searchBookFile is a book's pages file. Each page is
// [title, URL after Base, section number, tags, text], where text is
// [texts file number, place in it], or null for a page without text.
type searchBookFile struct {
	Base     string   `json:"base"`
	Sections []string `json:"sections"`
	Texts    []string `json:"texts"`
	Pages    [][]any  `json:"pages"`
}

// searchChunkFile is a word chunk: Pages[i] lists the pages whose text
// holds Words[i], as the first page number and then the gaps between
// numbers; Heads, by the word's place in Words (as a string, JSON's keys
// being strings), lists the same way the pages with the word in a heading.
// A word only in headings has no pages.
type searchChunkFile struct {
	Words []string         `json:"words"`
	Pages [][]int          `json:"pages"`
	Heads map[string][]int `json:"heads,omitempty"`
}

// Compact builds the search index's files from the entries of each
// book (a repository version's, in menu order; empty books are left out).
// It returns each file's content by its path in the site.
func Compact(books [][]Entry) (map[string][]byte, error) {
	var made []*Book
	files := map[string][]byte{}
	for _, entries := range books {
		b, err := NewBook(entries)
		if err != nil {
			return nil, err
		}
		if b == nil {
			continue
		}
		made = append(made, b)
		for name, data := range b.Files {
			files["search/"+name] = data
		}
	}
	joined, err := Join(made)
	if err != nil {
		return nil, err
	}
	for rel, data := range joined {
		files[rel] = data
	}
	return files, nil
}

// Book is one book of the index, made once for a unit's entries and
// joined with the others by Join: a push makes the book of the changed
// unit only. Its page numbers count from 0 within the book.
type Book struct {
	// Files are its pages file and its texts files, by name in search/
	// (named by their content).
	Files map[string][]byte `json:"-"`
	// Entry is its line of the manifest.
	Entry searchBookEntry `json:"entry"`
	// Words and Heads map each word of its pages' texts, and of their
	// headings, to the pages holding it, in increasing order.
	Words map[string][]int `json:"words"`
	Heads map[string][]int `json:"heads,omitempty"`
}

// NewBook makes the book of one repository version's entries; nil for
// none.
func NewBook(entries []Entry) (*Book, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	out := &Book{Files: map[string][]byte{}, Words: map[string][]int{}, Heads: map[string][]int{}}
	book := searchBookFile{Base: commonDir(entries), Sections: []string{}, Texts: []string{}}
	sections := map[string]int{}
	var texts []string // the texts file being filled
	size := 0
	flush := func() error {
		if len(texts) == 0 {
			return nil
		}
		data, err := json.Marshal(texts)
		if err != nil {
			return fmt.Errorf("site: search index: texts of %s: %w", entries[0].Repository, err)
		}
		name := contentName("texts", ".json", data)
		out.Files[name] = data
		book.Texts = append(book.Texts, name)
		texts, size = nil, 0
		return nil
	}
	for page, e := range entries {
		sec, ok := sections[e.Section]
		if !ok {
			sec = len(book.Sections)
			sections[e.Section] = sec
			book.Sections = append(book.Sections, e.Section)
		}
		tags := e.Tags
		if tags == nil {
			tags = []json.RawMessage{}
		}
		var text any // null: no text
		if e.Text != "" {
			text = []int{len(book.Texts), len(texts)}
			texts = append(texts, e.Text)
			if size += len(e.Text); size >= searchTextBytes {
				if err := flush(); err != nil {
					return nil, err
				}
			}
		}
		book.Pages = append(book.Pages, []any{e.Title, strings.TrimPrefix(e.URL, book.Base), sec, tags, text})
		for _, w := range textWords(e.Text + " " + e.More) {
			out.Words[w] = append(out.Words[w], page)
		}
		for _, w := range textWords(e.Headings) {
			out.Heads[w] = append(out.Heads[w], page)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	data, err := json.Marshal(book)
	if err != nil {
		return nil, fmt.Errorf("site: search index: book of %s: %w", entries[0].Repository, err)
	}
	name := contentName("pages", ".json", data)
	out.Files[name] = data
	first := entries[0]
	out.Entry = searchBookEntry{Repository: first.Repository, Pages: len(entries), File: name}
	if first.Version != "" {
		out.Entry.Version, out.Entry.VersionIsDefault, out.Entry.VersionRank = first.Version, first.VersionIsDefault, first.VersionRank
	}
	return out, nil
}

// Join makes the files that span books — the word chunks and the
// manifest — of the books in menu order, numbering pages across them.
// It returns each file's content by its path in the site; the books'
// own files are theirs.
func Join(books []*Book) (map[string][]byte, error) {
	files := map[string][]byte{}
	manifest := Manifest{Format: Format, Books: []searchBookEntry{}, Words: []searchChunkRef{}}
	postings := map[string][]int{} // word → pages, in increasing order
	heads := map[string][]int{}    // word → pages with it in a heading
	first := 0
	for _, b := range books {
		for w, pages := range b.Words {
			for _, p := range pages {
				postings[w] = append(postings[w], first+p)
			}
		}
		for w, pages := range b.Heads {
			for _, p := range pages {
				heads[w] = append(heads[w], first+p)
			}
		}
		first += b.Entry.Pages
		manifest.Books = append(manifest.Books, b.Entry)
	}
	for _, c := range wordChunks(postings, heads) {
		data, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("site: search index: word chunk: %w", err)
		}
		name := contentName("words", ".json", data)
		files["search/"+name] = data
		manifest.Words = append(manifest.Words, searchChunkRef{First: c.Words[0], File: name})
	}
	data, err := json.Marshal(manifest)
	if err != nil {
		return nil, fmt.Errorf("site: search index: manifest: %w", err)
	}
	files[ManifestFile] = data
	return files, nil
}

// wordChunks cuts the sorted words, their pages and the pages with them
// in a heading into chunks of about searchChunkBytes each.
func wordChunks(postings, heads map[string][]int) []searchChunkFile {
	words := make([]string, 0, len(postings))
	for w := range postings {
		words = append(words, w)
	}
	for w := range heads {
		if _, ok := postings[w]; !ok {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	var chunks []searchChunkFile
	var cur searchChunkFile
	size := 0
	for _, w := range words {
		gaps, n := gapsOf(postings[w])
		size += n + len(w) + 6
		if h := heads[w]; len(h) > 0 {
			if cur.Heads == nil {
				cur.Heads = map[string][]int{}
			}
			hg, n := gapsOf(h)
			cur.Heads[strconv.Itoa(len(cur.Words))] = hg
			size += n + 8
		}
		cur.Words = append(cur.Words, w)
		cur.Pages = append(cur.Pages, gaps)
		if size >= searchChunkBytes {
			chunks = append(chunks, cur)
			cur, size = searchChunkFile{}, 0
		}
	}
	if len(cur.Words) > 0 {
		chunks = append(chunks, cur)
	}
	return chunks
}

// textWords lists the distinct words of a page's text, lower-cased: runs
// of letters and digits. The browser splits query words the same way
// (js/docweave.js, wordsOf).
func textWords(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWordRune) {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }

// gapsOf is pages (in increasing order) as the first page number and
// then the gaps between numbers, with about how many bytes of JSON that is.
func gapsOf(pages []int) ([]int, int) {
	gaps := make([]int, len(pages))
	size, prev := 0, 0
	for i, p := range pages {
		gaps[i] = p - prev
		prev = p
		size += digits(gaps[i]) + 1
	}
	return gaps, size
}

func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

// commonDir is the longest directory URL every entry's URL starts with
// ("" when they share none): a book stores its URLs after it.
func commonDir(entries []Entry) string {
	prefix := entries[0].URL
	for _, e := range entries[1:] {
		for !strings.HasPrefix(e.URL, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		return prefix[:i+1]
	}
	return ""
}

// contentName is a file name carrying the first 128 bits of its content's
// sha256, the way the docs server recognises a file that never changes
// (name.<hash>.ext).
func contentName(stem, ext string, data []byte) string {
	sum := sha256.Sum256(data)
	return stem + "." + hex.EncodeToString(sum[:16]) + ext
}
