package site

import (
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/site/internal/linkcheck"
)

// checkUnitLinks checks, right after a unit's render (publish holding its
// output), the fragments of the unit's links to its own pages, adds the
// missing ones to r's issues, and gives r's facts each page's ids and the
// links that lead into other units, which the assembly checks (package
// linkcheck).
func checkUnitLinks(r *UnitResult, unit, publish, basePath string, detail projectDetail, log zerolog.Logger) error {
	start := time.Now()
	res, err := linkcheck.Unit(linkcheck.UnitInput{Unit: unit, Facts: r.Facts, Publish: publish, BasePath: basePath,
		IndexFiles: detail.indexFiles, Links: detail.links, IDs: detail.ids})
	if err != nil {
		return err
	}
	r.Facts = res.Facts
	r.Issues = append(r.Issues, res.Issues...)
	log.Info().Str("unit", unit).Int("fragments_checked", res.Checked).Int("fragments_missing", res.Missing).
		Int("links_to_other_units", res.Out).Int64("duration_ms", time.Since(start).Milliseconds()).Msg("links checked")
	return nil
}
