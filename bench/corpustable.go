package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteCorpusTable prints a corpus run as Markdown tables: the figures of
// each build, then the issues by code and the files that are not pages
// by reason, one column per build.
func WriteCorpusTable(w io.Writer, res *CorpusResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Corpus %s, docweave %s; %s, %d cores, %d MB.\n\n", res.Corpus, res.Docweave, res.Machine.CPU, res.Machine.Cores, res.Machine.MemoryMB)
	b.WriteString("| build | exit | Markdown given | not pages | rendered | left out | images referenced / published | external images | time | peak RSS |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range res.Rows {
		exit := fmt.Sprint(r.ExitCode)
		if r.TimedOut {
			exit = "timed out"
		}
		rendered, leftOut := fmt.Sprint(r.Rendered), fmt.Sprint(r.LeftOut)
		if r.Error != "" {
			rendered, leftOut = "no report", "—"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %d / %d | %d | %.1f s | %.0f MB |\n",
			r.Name, exit, r.Given, r.NotPages, rendered, leftOut, r.Images.Referenced, r.Images.Published, r.Images.External, r.Seconds, r.PeakRSSMB)
	}
	writeMatrix(&b, "issue code", res.Rows, func(r CorpusRow) map[string]int { return r.Issues })
	writeMatrix(&b, "not a page because", res.Rows, func(r CorpusRow) map[string]int { return r.NotPageReasons })
	for _, r := range res.Rows {
		if r.Error != "" {
			fmt.Fprintf(&b, "\n%s: no build report: %s\n", r.Name, r.Error)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMatrix prints counts with one row per key and one column per build;
// nothing when no build counted anything.
func writeMatrix(b *strings.Builder, title string, rows []CorpusRow, counts func(CorpusRow) map[string]int) {
	keys := map[string]bool{}
	for _, r := range rows {
		for k := range counts(r) {
			keys[k] = true
		}
	}
	if len(keys) == 0 {
		return
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	fmt.Fprintf(b, "\n| %s |", title)
	for _, r := range rows {
		fmt.Fprintf(b, " %s |", r.Name)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(rows)) + "\n")
	for _, k := range sorted {
		fmt.Fprintf(b, "| %s |", k)
		for _, r := range rows {
			fmt.Fprintf(b, " %d |", counts(r)[k])
		}
		b.WriteString("\n")
	}
}

// WriteJSON writes the corpus run, every figure and each repository's
// part of the one site, for scripts and later comparison.
func (res *CorpusResult) WriteJSON(path string) error {
	return writeJSONFile(path, res, "corpus results")
}
