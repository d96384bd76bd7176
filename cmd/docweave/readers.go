package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/docweave/docweave/internal/words"
	"github.com/docweave/docweave/report"
)

// readersShown is how many repositories the summary's readers line names.
const readersShown = 3

// printReaders writes one line saying what readers of the most affected
// repositories meet (raw syntax, missing images, dead links), so that an
// operator sees at a glance how far the site is from what its authors
// saw; the report's repositories[].reader has every repository's counts
// and examples.
func printReaders(w io.Writer, rep *report.Report) {
	worst, more := rep.ReaderSummary(readersShown)
	if len(worst) == 0 {
		return
	}
	parts := make([]string, 0, len(worst))
	for _, r := range worst {
		c := r.Reader
		var said []string
		if c.RawSyntaxPages > 0 {
			kinds := make([]string, 0, len(c.RawSyntax))
			for k := range c.RawSyntax {
				kinds = append(kinds, k)
			}
			sort.Slice(kinds, func(i, j int) bool {
				if c.RawSyntax[kinds[i]] != c.RawSyntax[kinds[j]] {
					return c.RawSyntax[kinds[i]] > c.RawSyntax[kinds[j]]
				}
				return kinds[i] < kinds[j]
			})
			for i, k := range kinds {
				kinds[i] = fmt.Sprintf("%s %d", k, c.RawSyntax[k])
			}
			said = append(said, fmt.Sprintf("raw syntax on %s (%s)", words.Plural(c.RawSyntaxPages, "page"), strings.Join(kinds, ", ")))
		}
		if c.ImagesNotPublished > 0 {
			said = append(said, words.Plural(c.ImagesNotPublished, "image")+" not published")
		}
		if c.DeadLinks > 0 {
			said = append(said, words.Plural(c.DeadLinks, "dead link"))
		}
		if c.FragmentsMissing > 0 {
			said = append(said, words.Plural(c.FragmentsMissing, "missing fragment"))
		}
		name := r.Name
		if r.Version != "" {
			name += "@" + r.Version
		}
		parts = append(parts, name+": "+strings.Join(said, ", "))
	}
	line := "readers meet: " + strings.Join(parts, "; ")
	if more > 0 {
		line += fmt.Sprintf("; and %s more (repositories[].reader in the report)", words.Count(more, "repository", "repositories"))
	}
	fmt.Fprintln(w, "  "+line)
}
