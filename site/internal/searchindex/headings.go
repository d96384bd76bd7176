package searchindex

import (
	"html"
	"regexp"
	"strings"

	"github.com/gohugoio/hugo/tpl"
)

// searchHeadingRunes is how long a page's headings text is at most: a
// page of a hundred headings adds its first words, not all of them.
const searchHeadingRunes = 1000

// headingElement is an HTML heading below the title (h2 to h6) and its
// content. Rendered Markdown closes every heading it opens.
var headingElement = regexp.MustCompile(`(?is)<h[2-6](?:\s[^>]*)?>(.*?)</h[2-6]\s*>`)

// searchHeadings is the text of the headings in the part of a page's body
// search reads (the template's cut, about searchBodyRunes characters),
// one after the other, at most searchHeadingRunes characters: the words
// the index marks as a page's heading words.
func searchHeadings(body string) string {
	var parts []string
	size := 0
	for _, m := range headingElement.FindAllStringSubmatch(firstRunes(body, searchBodyRunes), -1) {
		text := strings.Join(strings.Fields(html.UnescapeString(tpl.StripHTML(m[1]))), " ")
		if text == "" {
			continue
		}
		parts = append(parts, text)
		if size += len(text) + 1; size >= searchHeadingRunes {
			break
		}
	}
	return firstRunes(strings.Join(parts, " "), searchHeadingRunes)
}
