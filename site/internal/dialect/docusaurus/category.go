// Package docusaurus is the dialect of Docusaurus sites' folders: the
// label and place in the sidebar a folder's _category_.json (or .yml)
// asks for. (Their sidebar front matter is read with the other tools'
// menu keys by package pages; their admonitions are package
// admonitions'.)
package docusaurus

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Docusaurus folder may hold a _category_.json or _category_.yml naming
// the folder in the sidebar:
//
//	{"label": "Getting around", "position": 2, "link": {"type": "generated-index"}}
//
// label and position are read, as the folder's title in the menu and its
// place among its siblings; the rest (link, collapsed, className) is the
// Docusaurus theme's business and left alone.

// CategoryFiles are the names of a folder's category file, in the order
// Docusaurus reads them.
var CategoryFiles = []string{"_category_.json", "_category_.yml", "_category_.yaml"}

// MaxCategoryBytes bounds a category file: a label and a few options.
const MaxCategoryBytes = 64 << 10

// Category is what a category file says of its folder.
type Category struct {
	Label    string
	Position float64
	// Positioned tells a position of 0 from none.
	Positioned bool
}

// ParseCategory reads a category file (data, named name). A file that
// cannot be read gives the reason, as a sentence for the repository's
// issue, and an empty Category.
func ParseCategory(name string, data []byte) (Category, string) {
	var raw struct {
		Label    any `yaml:"label"`
		Position any `yaml:"position"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return Category{}, fmt.Sprintf("%s cannot be read, so the folder keeps its own title and place in the menu: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var c Category
	if s, ok := raw.Label.(string); ok {
		c.Label = strings.TrimSpace(s)
	}
	switch n := raw.Position.(type) {
	case int:
		c.Position, c.Positioned = float64(n), true
	case float64:
		c.Position, c.Positioned = n, true
	}
	return c, ""
}
