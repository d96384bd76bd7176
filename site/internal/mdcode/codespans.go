package mdcode

import "bytes"

// CodeSpanRanges returns the byte ranges of text's inline code spans
// (`like this`, or “with ` inside“), outside the fenced blocks given.
// A span opens with a run of backticks and closes with the next run of the
// same length in the same paragraph, as in CommonMark; a run that never
// closes is plain text. Forges show a shortcode written in a code span as
// it is, so a tag found there is kept as written too (see neutralize).
func CodeSpanRanges(text []byte, fences [][2]int) [][2]int {
	if bytes.IndexByte(text, '`') < 0 {
		return nil
	}
	var spans [][2]int
	inFence := func(pos int) (int, bool) {
		for _, f := range fences {
			if pos >= f[0] && pos < f[1] {
				return f[1], true
			}
		}
		return 0, false
	}
	for pos := 0; pos < len(text); {
		if end, ok := inFence(pos); ok {
			pos = end
			continue
		}
		if text[pos] != '`' {
			pos++
			continue
		}
		n := backtickRun(text, pos)
		closeAt := closingRun(text, pos+n, n)
		if closeAt < 0 {
			pos += n
			continue
		}
		spans = append(spans, [2]int{pos, closeAt + n})
		pos = closeAt + n
	}
	return spans
}

// backtickRun is the length of the run of backticks at pos.
func backtickRun(text []byte, pos int) int {
	n := 0
	for pos+n < len(text) && text[pos+n] == '`' {
		n++
	}
	return n
}

// closingRun finds, from pos, the next run of exactly n backticks before a
// blank line ends the paragraph; -1 when there is none.
func closingRun(text []byte, pos, n int) int {
	limit := len(text)
	if blank := bytes.Index(text[pos:], []byte("\n\n")); blank >= 0 {
		limit = pos + blank
	}
	for i := pos; i < limit; {
		if text[i] != '`' {
			i++
			continue
		}
		m := backtickRun(text, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}
