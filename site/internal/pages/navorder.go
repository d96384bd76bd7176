package pages

import (
	"math"
	"slices"
	"strings"
)

// Each documentation tool names a page's place in its menu, and the
// shorter label the menu shows, in front matter keys of its own. Hugo
// orders and labels its menu by weight and linkTitle, so the others'
// keys become those, unless the page sets Hugo's own:
//
//	sidebar_position  Docusaurus      sidebar_label  Docusaurus
//	sort_rank         prometheus/docs nav_title      prometheus/docs
//	nav_order         Just the Docs
//
// Positions may be fractions and start at 0, and weight 0 means "no
// weight" to Hugo: the weight is the position in thousandths, plus one.
// A page with a place comes before the pages without one (Hugo sorts
// unweighted pages last), as in the tools.

// positionKeys are the front matter keys naming a page's place in the menu.
var positionKeys = []string{"sidebar_position", "sort_rank", "nav_order"}

// labelKeys are the front matter keys naming a page's label in the menu.
var labelKeys = []string{"sidebar_label", "nav_title"}

// maxPosition bounds a position: a larger one would overflow a weight.
const maxPosition = 1e6

// isNavKey reports whether key (lower case) is another tool's menu key.
func isNavKey(lower string) bool {
	return slices.Contains(positionKeys, lower) || slices.Contains(labelKeys, lower)
}

// navOrder sets in out the weight and linkTitle the other tools' keys of
// fm ask for, unless fm sets Hugo's own.
func navOrder(fm, out map[string]any) {
	has := func(name string) bool {
		for k := range fm {
			if strings.EqualFold(k, name) {
				return true
			}
		}
		return false
	}
	for k, v := range fm {
		lower := strings.ToLower(k)
		switch {
		case slices.Contains(positionKeys, lower):
			if pos, ok := position(v); ok && !has("weight") {
				out["weight"] = weightOf(pos)
			}
		case slices.Contains(labelKeys, lower):
			if s, ok := v.(string); ok && strings.TrimSpace(s) != "" && !has("linktitle") {
				out["linkTitle"] = s
			}
		}
	}
}

// position reads a menu position: a number from 0 up to maxPosition.
func position(v any) (float64, bool) {
	var pos float64
	switch n := v.(type) {
	case int:
		pos = float64(n)
	case int64:
		pos = float64(n)
	case uint64:
		pos = float64(n)
	case float64:
		pos = n
	default:
		return 0, false
	}
	return pos, pos >= 0 && pos < maxPosition
}

// weightOf is the Hugo weight of a menu position (see above).
func weightOf(pos float64) int {
	return int(math.Round(pos*1000)) + 1
}
