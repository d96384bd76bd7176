package mdlinks

import (
	"bytes"
	"regexp"
)

// gitbookFile matches the source of GitBook's file block,
// {% file src="../.gitbook/assets/guide.pdf" %}, which the site turns into
// a download link: the file is a reference of the page like a link's.
var gitbookFile = regexp.MustCompile(`\{%-?\s*file\s+(?:[^%]|%[^}])*?\bsrc\s*=\s*"([^"]*)"`)

// gitbookFiles are the sources of body's GitBook file blocks, outside the
// code blocks at the byte ranges code.
func gitbookFiles(body []byte, code [][2]int) []Link {
	if !bytes.Contains(body, []byte("{%")) {
		return nil
	}
	var out []Link
	for _, m := range gitbookFile.FindAllSubmatchIndex(body, -1) {
		if inRanges(m[0], code) {
			continue
		}
		out = append(out, Link{Dest: string(body[m[2]:m[3]]), Line: bytes.Count(body[:m[2]], []byte("\n")) + 1, At: -1})
	}
	return out
}

// inRanges reports whether pos is inside one of the byte ranges.
func inRanges(pos int, ranges [][2]int) bool {
	for _, r := range ranges {
		if pos >= r[0] && pos < r[1] {
			return true
		}
	}
	return false
}
