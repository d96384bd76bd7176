package preflight

import (
	"fmt"
	"io"
	"strings"

	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/internal/words"
)

// Print writes, for each repository, its refs and its paths at the
// configured ref, then every problem; it returns the number of problems.
// Unreachable remotes are reported but not counted: a network failure
// says nothing about the file.
func Print(w io.Writer, results []Result) int {
	problems := 0
	for _, r := range results {
		fmt.Fprintf(w, "%s  %s\n", r.Repository.Name, gitx.RedactURL(r.Repository.URL))
		if p := r.Probe; p != nil {
			fmt.Fprintf(w, "  refs: %s\n", refsLine(p))
			if p.Commit != "" {
				fmt.Fprintf(w, "  %s (%s): %s\n", p.Ref, p.Commit[:min(7, len(p.Commit))], pathsLine(p))
			}
		}
		if r.Unreachable != nil {
			fmt.Fprintf(w, "  not checked: %v\n", r.Unreachable)
		}
		problems += len(r.Problems)
	}
	for _, r := range results {
		for _, p := range r.Problems {
			fmt.Fprintln(w, p.String())
		}
	}
	return problems
}

func refsLine(p *gitx.Probe) string {
	branches, tags := splitRefs(p.Refs)
	parts := []string{words.Count(len(branches), "branch", "branches") + " (" + listed(branches, 10) + ")"}
	if len(tags) > 0 {
		parts = append(parts, words.Plural(len(tags), "tag")+" ("+listed(tags, 10)+")")
	}
	if p.DefaultBranch != "" {
		parts = append(parts, "default "+p.DefaultBranch)
	}
	return strings.Join(parts, " · ")
}

func pathsLine(p *gitx.Probe) string {
	parts := make([]string, len(p.Paths))
	for i, pc := range p.Paths {
		state := "found"
		if !pc.Found {
			state = "MISSING"
		}
		parts[i] = pc.Path + " " + state
	}
	return strings.Join(parts, ", ")
}
