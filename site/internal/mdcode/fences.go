// Package mdcode finds where a Markdown body's code is — fenced blocks and
// inline code spans — so that what converts a page (shortcodes, dialects)
// leaves an example written in code as its author wrote it.
package mdcode

import (
	"bytes"
	"strings"
)

// FencedRanges returns the byte ranges of text's fenced code blocks, from
// the start of the opening fence line to the end of the closing one (or of
// the text, for a block never closed).
func FencedRanges(text []byte) [][2]int {
	if !bytes.Contains(text, []byte("```")) && !bytes.Contains(text, []byte("~~~")) {
		return nil
	}
	var ranges [][2]int
	var fence []byte
	start, pos := 0, 0
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " ")
		if f := FenceOf(trimmed); f != nil && len(line)-len(trimmed) <= 3 {
			switch {
			case fence == nil:
				fence, start = f, pos
			case bytes.HasPrefix(f, fence) && len(bytes.TrimSpace(trimmed[len(f):])) == 0:
				fence = nil
				ranges = append(ranges, [2]int{start, pos + len(line)})
			}
		}
		pos += len(line)
	}
	if fence != nil {
		ranges = append(ranges, [2]int{start, len(text)})
	}
	return ranges
}

// FenceOf returns the fence (``` or ~~~, three or more) a line opens with,
// or nil.
func FenceOf(line []byte) []byte {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return nil
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return nil
	}
	return line[:n]
}

// FenceTracker returns a function that, fed the lines of a Markdown body
// in order, reports whether each is part of a fenced code block (its
// fences included), at any indentation (a fence in a nested list item).
func FenceTracker() func(line string) bool {
	var open string
	openIndent := 0
	return func(line string) bool {
		// A fence indented four spaces or more opens a block too: inside a
		// list item, CommonMark measures the indentation from the item's
		// text. A closing fence is indented at most three spaces more than
		// its opening one (more is the block's content).
		t := strings.TrimLeft(line, " ")
		indent := len(line) - len(t)
		if open != "" {
			if indent <= openIndent+3 && strings.HasPrefix(t, open) && strings.TrimSpace(strings.TrimLeft(t, open[:1])) == "" {
				open = ""
			}
			return true
		}
		for _, f := range []string{"```", "~~~"} {
			if strings.HasPrefix(t, f) {
				n := len(t) - len(strings.TrimLeft(t, f[:1]))
				open, openIndent = strings.Repeat(f[:1], n), indent
				return true
			}
		}
		return false
	}
}
