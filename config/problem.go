package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/docweave/docweave/internal/editdist"
)

// Problem is one thing wrong with a configuration: the key path it concerns
// (for example "repositories[2].auth.token") and a message that says what is
// wrong and what was expected. Messages never contain secret values.
type Problem struct {
	Key     string
	Message string
	// Position is where the key (or, for a key the file does not write,
	// its nearest enclosing key) sits in the file; zero when unknown, as
	// for a configuration built in code.
	Position Position
}

// String renders the problem as "<key path>: <message>", preceded by
// "<line>:<column>: " when its place in the file is known.
func (p Problem) String() string {
	s := p.Message
	if p.Key != "" {
		s = p.Key + ": " + s
	}
	if p.Position.Known() {
		s = p.Position.String() + ": " + s
	}
	return s
}

// ValidationError carries every problem found in a configuration at once,
// so an operator fixes a file in one pass instead of one error per run.
type ValidationError struct {
	// File is the configuration file the problems are in ("" when the
	// configuration did not come from a file).
	File     string
	Problems []Problem
}

// Error lists the problems one per line, sorted by key path, each as
// "<file>:<line>:<column>: <key path>: <message>" when its place in the
// file is known (the form editors and terminals link to), else as
// "<key path>: <message>".
func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
		if e.File != "" && p.Position.Known() {
			lines[i] = e.File + ":" + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// problemList collects problems while a check runs.
type problemList []Problem

func (l *problemList) add(key, format string, args ...any) {
	*l = append(*l, Problem{Key: key, Message: fmt.Sprintf(format, args...)})
}

// sortProblems orders problems by key path, comparing list indexes as
// numbers so repositories[10] comes after repositories[2], then by message.
func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		if c := naturalCompare(ps[i].Key, ps[j].Key); c != 0 {
			return c < 0
		}
		return ps[i].Message < ps[j].Message
	})
}

// sortByPosition orders problems the way the file reads, top to bottom;
// problems of keys the file does not write keep their key order, after
// the others.
func sortByPosition(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Position, ps[j].Position
		switch {
		case a.Known() != b.Known():
			return a.Known()
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// naturalCompare compares two strings, treating runs of digits as numbers.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := leadingDigits(a), leadingDigits(b)
		if da != "" && db != "" {
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(na) != len(nb) {
				return cmpInt(len(na), len(nb))
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return cmpInt(int(a[0]), int(b[0]))
		}
		a, b = a[1:], b[1:]
	}
	return cmpInt(len(a), len(b))
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// suggest returns the candidate closest to an unknown key by edit distance
// when it is close enough to be a plausible typo, or "" otherwise.
func suggest(unknown string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(unknown, c)
		if bestDist < 0 || d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	limit := len(unknown) / 3
	if limit < 2 {
		limit = 2
	}
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between two strings.
func editDistance(a, b string) int { return editdist.Distance(a, b) }
