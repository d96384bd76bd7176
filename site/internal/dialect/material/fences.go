package material

import (
	"strings"

	"github.com/docweave/docweave/site/internal/mdcode"
)

// fences tracks fenced code blocks line by line, at any indentation (a
// block inside a tab or an admonition is indented): what is inside is an
// example, left as written. A fence closes its block only when indented
// at most three columns more than the one that opened it, as CommonMark
// reads it in its container (so an example of a fenced block inside a
// fenced block stays inside).
type fences struct {
	open   string
	indent int
}

// in reports whether line is part of a fenced block, its fences included.
func (f *fences) in(line string) bool {
	t := strings.TrimLeft(line, " \t")
	indent := len(line) - len(t)
	fc := string(mdcode.FenceOf([]byte(t)))
	if f.open == "" {
		f.open, f.indent = fc, indent
		return fc != ""
	}
	if fc != "" && indent <= f.indent+3 && strings.HasPrefix(fc, f.open) && strings.TrimSpace(t[len(fc):]) == "" {
		f.open = ""
	}
	return true
}
