package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/httpsrv/docs"
)

// wordOf is the n-th word of count letters from the alphabet of 26
// letters starting at first: the words sort as their numbers do.
func wordOf(first rune, count, n int) string {
	letters := make([]rune, count)
	for i := count - 1; i >= 0; i-- {
		letters[i] = first + rune(n%26)
		n /= 26
	}
	return string(letters)
}

// TestSearchFindsWordsOnEitherSideOfTheSurrogates: the word chunks are
// in code-point order (Go sorts UTF-8), while JavaScript's < compares
// UTF-16 units, in which letters above U+FFFF (mathematical letters here)
// come before those of U+E000–U+FFFF (fullwidth Latin here). Pages of
// each fill several chunks; a search for the last fullwidth word and for
// a mathematical one must each find its page, which a lookup in UTF-16
// order misses (it picks a chunk of the other kind).
func TestSearchFindsWordsOnEitherSideOfTheSurrogates(t *testing.T) {
	const perPage = 550 // words of a page: its text is cut at 3,000 characters
	pages := map[string]string{}
	write := func(name, title string, first rune, length, from int) (last string) {
		var words []string
		for i := 0; i < perPage; i++ {
			words = append(words, wordOf(first, length, from+i))
		}
		pages["beta/usage/"+name+".md"] = fmt.Sprintf("---\ntitle: %s\n---\n\n%s\n", title, strings.Join(words, " "))
		return words[len(words)-1]
	}
	var lastWide, aMath string
	for i := 0; i < 8; i++ {
		lastWide = write(fmt.Sprintf("wide%d", i), fmt.Sprintf("Wide letters %d", i), 'ａ', 4, i*perPage)
	}
	for i := 0; i < 4; i++ {
		last := write(fmt.Sprintf("math%d", i), fmt.Sprintf("Mathematical letters %d", i), '𝐚', 3, i*perPage)
		if i == 1 {
			aMath = last
		}
	}
	publish := renderFixtureWith(t, "/", nil, pages)
	root := "http://" + listen(t, docs.New(docs.Options{PublicDir: publish, Log: zerolog.Nop()}))
	ctx := newBrowser(t)
	p := page{t, ctx}
	p.open(root + "/docs/alpha/intro/")
	manifest := readSearchManifest(t, publish)
	var firsts []string
	for _, w := range manifest.Words {
		firsts = append(firsts, w.First)
	}
	t.Logf("word chunks begin with %q", firsts)
	// The case the test is about: chunks that begin with a fullwidth word
	// and, after them, chunks that begin with a mathematical one.
	wide, math := 0, 0
	for _, f := range firsts {
		switch r := []rune(f)[0]; {
		case r >= 0xe000 && r <= 0xffff:
			wide++
		case r > 0xffff && wide > 0:
			math++
		}
	}
	if wide < 2 || math < 2 {
		t.Fatalf("word chunks begin with %q: want several of fullwidth words followed by several of mathematical ones", firsts)
	}
	for _, c := range []struct{ word, want string }{
		{lastWide, "Wide letters 7"},
		{aMath, "Mathematical letters 1"},
	} {
		// Typed through the input's value: key events cannot carry a
		// character above U+FFFF.
		p.eval(fmt.Sprintf(`(() => { const i = document.querySelector("#dw-search-input"); i.value = ""; i.blur(); i.focus(); i.value = %q; i.dispatchEvent(new Event("input")); return ""; })()`, c.word))
		p.waitFor(fmt.Sprintf(`document.querySelector("#dw-search-results").textContent.includes(%q)`, c.want),
			fmt.Sprintf("%q among the results for %q", c.want, c.word))
	}
}
