package material

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/model"
)

// pymdownx.snippets includes files into a page before anything else reads
// it, in code blocks too:
//
//	--8<-- "includes/abbreviations.md"
//	--8<-- "setup.py:10:20"          (lines 10 to 20)
//	--8<--
//	first.md
//	second.md
//	--8<--
//
// ";--8<--" escapes the marker: the line shows without the ";". A file is
// included only from the page's own repository (Page.Files, which refuses
// paths out of it, symbolic links included), named by a relative path
// without "..", no larger than maxSnippetSize, at most maxSnippetDepth
// snippets deep and maxSnippets per page. Anything else (a URL, a missing
// or refused file) leaves an empty line and a note naming the file and
// the line.
const (
	maxSnippetSize  = 256 << 10
	maxSnippetDepth = 4
	maxSnippets     = 64
)

var (
	snippetLine  = regexp.MustCompile(`^([ \t]*)(;?)--8<--[ \t]+(?:"([^"]*)"|'([^']*)')[ \t\r]*$`)
	snippetBlock = regexp.MustCompile(`^([ \t]*)--8<--[ \t\r]*$`)
	lineRange    = regexp.MustCompile(`^(.*?)((?::-?\d*){1,2})$`)
)

// inclusion is where an included file's lines are in the converted body.
type inclusion struct{ at, lines, origLine, origLines int }

// snippets includes the snippets of one page.
type snippets struct {
	p     dialect.Page
	count int
	notes []dialect.Note
}

// includeSnippets returns the page's body with its snippets included, the
// notes on those not included, and a function giving a line of the result
// its line in the body as written.
func includeSnippets(p dialect.Page) ([]byte, []dialect.Note, func(int) int) {
	body := p.Body()
	if !strings.Contains(string(body), "--8<--") {
		return body, nil, func(n int) int { return n }
	}
	s := &snippets{p: p}
	lines := strings.Split(string(body), "\n")
	var out []string
	var incs []inclusion
	for i := 0; i < len(lines); i++ {
		start := len(out)
		consumed := 1
		if m := snippetLine.FindStringSubmatch(lines[i]); m != nil {
			if m[2] == ";" {
				out = append(out, strings.Replace(lines[i], ";--8<--", "--8<--", 1))
				continue
			}
			out = append(out, s.include(m[1], m[3]+m[4], i+1, 0)...)
		} else if m := snippetBlock.FindStringSubmatch(lines[i]); m != nil && blockEnd(lines, i) > 0 {
			end := blockEnd(lines, i)
			for j := i + 1; j < end; j++ {
				if name := strings.TrimSpace(lines[j]); name != "" && !strings.HasPrefix(name, ";") {
					out = append(out, s.include(m[1], name, j+1, 0)...)
				}
			}
			consumed = end - i + 1
			i = end
		} else {
			out = append(out, lines[i])
			continue
		}
		if len(out) == start {
			out = append(out, "")
		}
		incs = append(incs, inclusion{at: start + 1, lines: len(out) - start, origLine: i + 2 - consumed, origLines: consumed})
	}
	origLine := func(n int) int {
		shift := 0
		for _, inc := range incs {
			if n < inc.at {
				break
			}
			if n < inc.at+inc.lines {
				return inc.origLine
			}
			shift += inc.lines - inc.origLines
		}
		return n - shift
	}
	return []byte(strings.Join(out, "\n")), s.notes, origLine
}

// blockEnd is the index of the line closing the snippet block opened at
// lines[i], or 0.
func blockEnd(lines []string, i int) int {
	for j := i + 1; j < len(lines) && j <= i+maxSnippets+1; j++ {
		if snippetBlock.MatchString(lines[j]) {
			return j
		}
	}
	return 0
}

// include returns the lines of the snippet name, indented by ind, for a
// marker on line (of the page as written); depth is how deep in snippets
// the marker is.
func (s *snippets) include(ind, name string, line, depth int) []string {
	file, from, to := splitRange(name)
	text, err := s.read(file, depth)
	if err != nil {
		s.notes = append(s.notes, dialect.Note{Code: model.IssueSnippetNotIncluded, Line: line, Message: fmt.Sprintf("snippet %q not included: %v", name, err)})
		return nil
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n")
	if from > 0 || to > 0 {
		lines = lineSlice(lines, from, to)
	}
	var out []string
	for _, l := range lines {
		if m := snippetLine.FindStringSubmatch(l); m != nil && m[2] == "" {
			out = append(out, s.include(ind+m[1], m[3]+m[4], line, depth+1)...)
			continue
		}
		if l == "" {
			out = append(out, "")
		} else {
			out = append(out, ind+l)
		}
	}
	return out
}

// read reads a snippet's file from the page's repository, refusing what
// the limits refuse before reading it.
func (s *snippets) read(name string, depth int) (string, error) {
	switch {
	case s.p.Files == nil:
		return "", fmt.Errorf("the page's repository is not known")
	case depth >= maxSnippetDepth:
		return "", fmt.Errorf("snippets nest more than %d deep", maxSnippetDepth)
	case s.count >= maxSnippets:
		return "", fmt.Errorf("the page includes more than %d snippets", maxSnippets)
	case strings.Contains(name, "://"):
		return "", fmt.Errorf("a URL is never fetched")
	case name == "" || path.IsAbs(name) || strings.HasPrefix(name, `\`) || strings.Contains(name, ":"):
		return "", fmt.Errorf("not a relative path in the repository")
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return "", fmt.Errorf("a path with \"..\" is refused")
		}
	}
	s.count++
	var lastErr error
	for _, c := range s.candidates(path.Clean(name)) {
		f, err := s.p.Files.Open(c)
		if err != nil {
			lastErr = err
			continue
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			return "", fmt.Errorf("not a regular file")
		}
		if st.Size() > maxSnippetSize {
			return "", fmt.Errorf("%d bytes, more than the %d a snippet may have", st.Size(), maxSnippetSize)
		}
		b, err := io.ReadAll(io.LimitReader(f, maxSnippetSize+1))
		if err != nil {
			return "", err
		}
		if len(b) > maxSnippetSize {
			return "", fmt.Errorf("more than the %d bytes a snippet may have", maxSnippetSize)
		}
		return string(b), nil
	}
	if pe, ok := lastErr.(*fs.PathError); ok && !strings.Contains(pe.Err.Error(), "no such file") {
		return "", fmt.Errorf("refused: %v", pe.Err)
	}
	return "", fmt.Errorf("no such file in the repository's documentation")
}

// candidates are the files a snippet's name may be, in the order tried:
// from the repository's root (pymdownx's base path), which Files holds
// below a documentation root, then from the page's folder.
func (s *snippets) candidates(name string) []string {
	var out []string
	for _, root := range s.p.DocRoots {
		if rest, ok := strings.CutPrefix(name, strings.Trim(root, "/")+"/"); ok {
			out = append(out, rest)
		}
	}
	out = append(out, name)
	if dir := path.Dir(s.p.Path); dir != "." {
		out = append(out, path.Join(dir, name))
	}
	return out
}

// splitRange splits "file:from:to" (either number may be missing).
func splitRange(name string) (string, int, int) {
	m := lineRange.FindStringSubmatch(name)
	if m == nil || m[1] == "" {
		return name, 0, 0
	}
	parts := strings.Split(strings.TrimPrefix(m[2], ":"), ":")
	from, _ := strconv.Atoi(parts[0])
	to := 0
	if len(parts) > 1 {
		to, _ = strconv.Atoi(parts[1])
	}
	return m[1], from, to
}

// lineSlice is lines from..to (1-based, inclusive; 0 for open ends).
func lineSlice(lines []string, from, to int) []string {
	if from < 1 {
		from = 1
	}
	if to < 1 || to > len(lines) {
		to = len(lines)
	}
	if from > to {
		return nil
	}
	return lines[from-1 : to]
}
