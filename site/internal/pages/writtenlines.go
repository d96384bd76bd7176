package pages

import (
	"bytes"

	"github.com/docweave/docweave/internal/mdlinks"
)

// linesAsWritten gives the links found in body, a page's body converted
// by its dialects, the lines they have in written, the body as written,
// which issues name: a dialect may add or remove lines (an admonition's
// opening and closing tags, imports dropped) and change some (an icon
// shortcode). The two are aligned on their anchors, the lines whose text
// (spaces around it aside) is found once in each, in order; a link's
// line keeps the shift of the last anchor at or above it.
func linesAsWritten(found []mdlinks.Link, body, written []byte) {
	if len(found) == 0 {
		return
	}
	inWritten := map[string]int{} // text → its line, -1 when on several
	for i, line := range bytes.Split(written, []byte("\n")) {
		k := string(bytes.TrimSpace(line))
		if _, seen := inWritten[k]; seen {
			inWritten[k] = -1
		} else {
			inWritten[k] = i + 1
		}
	}
	lines := bytes.Split(body, []byte("\n"))
	inBody := make(map[string]int, len(lines))
	for _, line := range lines {
		inBody[string(bytes.TrimSpace(line))]++
	}
	shiftAt := make([]int, len(lines)+1) // by line of body
	shift, last := 0, 0
	for i, line := range lines {
		k := string(bytes.TrimSpace(line))
		if w := inWritten[k]; k != "" && inBody[k] == 1 && w > last {
			shift, last = w-(i+1), w
		}
		shiftAt[i+1] = shift
	}
	for i, l := range found {
		if l.Line >= 1 && l.Line < len(shiftAt) {
			found[i].Line = l.Line + shiftAt[l.Line]
		}
	}
}
