package bench

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// chartPair is one group of the chart: a figure and what it is measured
// against (its floor, the cold build, or the target).
type chartPair struct {
	Label             string
	Value, Reference  float64
	ValueText, RefTxt string
	Headline          string
	Met               *bool
}

// WriteSVG draws the report's figures against their references as a plain
// SVG bar chart: per figure a grey bar for the reference and a coloured bar
// for docweave (green when it meets the target, red when not, blue
// when there is none), both on the group's own scale, and the ratio as the
// headline. Absolute times differ between machines; the ratios travel.
func WriteSVG(w io.Writer, r *Report) error {
	pairs := chartPairs(r)
	const width, left, right, top, group = 1040, 400, 230, 64, 58
	barMax := float64(width - left - right)
	height := top + group*len(pairs) + 40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="16" y="26" font-size="17" font-weight="bold">docweave against its floors (median of %d)</text>`+"\n", r.Settings.Repeat)
	fmt.Fprintf(&b, `<text x="16" y="46" fill="#555">%s</text>`+"\n", esc(machineLine(r)))
	for i, p := range pairs {
		y := top + i*group
		scale := p.Value
		if p.Reference > scale {
			scale = p.Reference
		}
		if scale <= 0 {
			scale = 1
		}
		refW := p.Reference / scale * barMax
		valW := p.Value / scale * barMax
		color := "#3b6fd8"
		if p.Met != nil {
			color = map[bool]string{true: "#2e9d4f", false: "#d8453b"}[*p.Met]
		}
		fmt.Fprintf(&b, `<text x="16" y="%d" font-weight="bold">%s</text>`+"\n", y+20, esc(p.Label))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="16" fill="#b8b8b8"/>`+"\n", left, y+4, refW)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="#555">%s</text>`+"\n", float64(left)+refW+6, y+17, esc(p.RefTxt))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="16" fill="%s"/>`+"\n", left, y+24, valW, color)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s</text>`+"\n", float64(left)+valW+6, y+37, esc(p.ValueText))
		fmt.Fprintf(&b, `<text x="16" y="%d" fill="%s">%s</text>`+"\n", y+38, color, esc(p.Headline))
	}
	fmt.Fprintf(&b, `<text x="16" y="%d" fill="#555">grey: reference (floor, cold build or target) · coloured: docweave · green meets the target, red misses it</text>`+"\n", height-14)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// chartPairs picks the rows that have something to be measured against.
func chartPairs(r *Report) []chartPair {
	var pairs []chartPair
	for _, row := range r.Rows {
		if row.NotMeasured != "" {
			continue
		}
		label := row.Label
		if row.Size != "" {
			label += " " + row.Size
		}
		if row.Ratio != nil {
			ref, _ := r.Find(row.Reference, row.Size)
			headline := fmt.Sprintf("%.2f× %s", *row.Ratio, referenceNames[row.Reference])
			if row.Target != "" {
				headline += " (target " + row.Target + ")"
			}
			pairs = append(pairs, chartPair{
				Label: label, Value: row.Summary.Median, Reference: ref.Summary.Median,
				ValueText: "docweave " + formatValue(row.Summary.Median, row.Unit),
				RefTxt:    referenceNames[row.Reference] + " " + formatValue(ref.Summary.Median, ref.Unit),
				Headline:  headline, Met: row.Met,
			})
			continue
		}
		if lim, ok := targets[row.ID]; ok && !lim.OnRatio && row.Unit != "MB/build" {
			pairs = append(pairs, chartPair{
				Label: label, Value: row.Summary.Median, Reference: lim.Max,
				ValueText: "docweave " + formatValue(row.Summary.Median, row.Unit),
				RefTxt:    "target " + formatValue(lim.Max, row.Unit),
				Headline:  fmt.Sprintf("%.2f× target (%s)", row.Summary.Median/lim.Max, lim.Text), Met: row.Met,
			})
		}
	}
	return pairs
}

func machineLine(r *Report) string {
	m := r.Machine
	return fmt.Sprintf("%s, %d cores, %s; load %.2f at start · %s", orUnknown(m.CPU), m.Cores, m.Go, m.LoadStart[0], r.StartedAt.Format("2006-01-02 15:04 MST"))
}

func esc(s string) string { return html.EscapeString(s) }
