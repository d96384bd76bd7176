package bench

import (
	"fmt"
	"io"
	"strings"
)

// referenceNames say in words what a ratio is taken against.
var referenceNames = map[string]string{
	RowColdFloor:     "floor",
	RowFloorPeakRSS:  "floor RSS",
	RowFloorUserCPU:  "floor CPU",
	RowRenderMinimal: "minimal templates",
	RowColdBuild:     "cold build",
	RowLinksCold:     "cold",
}

// WriteTable writes the report as a Markdown table — readable on a
// terminal and pasted as is into the README — followed by the machine line.
func WriteTable(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString("| figure | size | median | spread (min–max) | ratio | target | met |\n")
	b.WriteString("|---|---|---:|---|---:|---|---|\n")
	for _, row := range r.Rows {
		size := row.Size
		if size == "" {
			size = "—"
		}
		if row.NotMeasured != "" {
			fmt.Fprintf(&b, "| %s | %s | not measured | %s | | %s | |\n", row.Label, size, oneLine(row.NotMeasured, 120), row.Target)
			continue
		}
		s := row.Summary
		spread := fmt.Sprintf("%s – %s (±%.0f%%, n=%d)", formatValue(s.Min, row.Unit), formatValue(s.Max, row.Unit), s.SpreadPercent()/2, len(s.Samples))
		if len(s.Samples) == 1 {
			spread = "single figure"
		}
		ratio := ""
		if row.Ratio != nil {
			ratio = fmt.Sprintf("%.2f× %s", *row.Ratio, referenceNames[row.Reference])
		}
		met := ""
		if row.Met != nil {
			met = map[bool]string{true: "yes", false: "**no**"}[*row.Met]
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", row.Label, size, formatValue(s.Median, row.Unit), spread, ratio, row.Target, met)
	}
	m := r.Machine
	fmt.Fprintf(&b, "\nMachine: %s, %d cores, %d MB RAM, %s/%s, %s; load average %.2f/%.2f/%.2f at start, %.2f/%.2f/%.2f at end. Repeats: %d (median shown).\n",
		orUnknown(m.CPU), m.Cores, m.MemoryMB, m.OS, m.Arch, m.Go,
		m.LoadStart[0], m.LoadStart[1], m.LoadStart[2], m.LoadEnd[0], m.LoadEnd[1], m.LoadEnd[2], r.Settings.Repeat)
	for _, row := range r.Rows {
		if row.Note != "" && row.NotMeasured == "" {
			size := ""
			if row.Size != "" {
				size = " (" + row.Size + ")"
			}
			fmt.Fprintf(&b, "- %s%s: %s\n", row.Label, size, row.Note)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatValue prints a figure in its unit, switching seconds to
// milliseconds below one second.
func formatValue(v float64, unit string) string {
	switch unit {
	case "s":
		if v < 1 {
			return fmt.Sprintf("%.0f ms", v*1000)
		}
		return fmt.Sprintf("%.2f s", v)
	case "MB":
		return fmt.Sprintf("%.0f MB", v)
	case "req/s":
		return fmt.Sprintf("%.0f req/s", v)
	default:
		return fmt.Sprintf("%.2f %s", v, unit)
	}
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}
