// Package docusaurus is the dialect of Docusaurus sites' front matter: the
// sidebar order and label a page asks for. (Their admonitions are package
// admonitions'.)
package docusaurus

import (
	"math"
	"strings"
)

// Sidebar gives a page the sidebar order and label its
// Docusaurus front matter asks for (sidebar_position, sidebar_label), as
// the weight and linkTitle the theme orders and names its menu by, unless
// the page sets those itself. Positions may be fractions and start at 0,
// and weight 0 means "no weight" to Hugo: the weight is the position in
// thousandths, plus one.
func Sidebar(fm, out map[string]any) {
	has := func(name string) bool {
		for k := range fm {
			if strings.EqualFold(k, name) {
				return true
			}
		}
		return false
	}
	for k, v := range fm {
		switch strings.ToLower(k) {
		case "sidebar_position":
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
				continue
			}
			if pos >= 0 && pos < 1e6 && !has("weight") {
				out["weight"] = int(math.Round(pos*1000)) + 1
			}
		case "sidebar_label":
			if s, ok := v.(string); ok && strings.TrimSpace(s) != "" && !has("linktitle") {
				out["linkTitle"] = s
			}
		}
	}
}
