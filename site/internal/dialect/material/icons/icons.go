// Package icons holds the icon sets Material for MkDocs writes as
// shortcodes (":material-check:", ":octicons-file-code-16:",
// ":fontawesome-brands-github:", ":simple-go:") and gives one icon as
// inline SVG, so that a page carries only the icons it uses. The sets are
// packed from their npm packages by generate.go; their licences are in
// licenses/. A set is unpacked the first time a page asks for one of its
// icons, and kept for the process.
package icons

import (
	"bufio"
	"compress/gzip"
	"embed"
	"strings"
	"sync"
)

//go:embed sets/*.txt.gz
var packed embed.FS

// prefixes are the shortcode prefixes, longest first, with their sets.
var prefixes = []struct{ prefix, set string }{
	{"fontawesome-brands-", "fontawesome-brands"},
	{"fontawesome-solid-", "fontawesome-solid"},
	{"fontawesome-regular-", "fontawesome-regular"},
	{"material-", "material"},
	{"octicons-", "octicons"},
	{"simple-", "simple"},
}

// icon is one icon of a set: its viewBox and inner markup.
type icon struct{ viewBox, inner string }

var (
	mu     sync.Mutex
	loaded = map[string]map[string]icon{}
)

// IsIconCode reports whether code (without colons) names an icon set's
// icon, found or not: "material-check" does, "smile" does not.
func IsIconCode(code string) bool {
	_, _, ok := split(code)
	return ok
}

func split(code string) (set, name string, ok bool) {
	for _, p := range prefixes {
		if n, found := strings.CutPrefix(code, p.prefix); found && n != "" {
			return p.set, n, true
		}
	}
	return "", "", false
}

// SVG returns the icon code names (without colons) as an inline SVG
// element, with attrs (such as `aria-hidden="true"`) on it, and false
// when no set has it.
func SVG(code, attrs string) (string, bool) {
	set, name, ok := split(code)
	if !ok {
		return "", false
	}
	ic, ok := setOf(set)[name]
	if !ok {
		return "", false
	}
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="` + ic.viewBox + `" ` + attrs + `>` + ic.inner + `</svg>`, true
}

// setOf unpacks a set once; a set that cannot be read is empty (its
// icons are then reported unknown).
func setOf(set string) map[string]icon {
	mu.Lock()
	defer mu.Unlock()
	if m, ok := loaded[set]; ok {
		return m
	}
	m := map[string]icon{}
	loaded[set] = m
	f, err := packed.Open("sets/" + set + ".txt.gz")
	if err != nil {
		return m
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 3)
		if len(parts) == 3 {
			m[parts[0]] = icon{viewBox: parts[1], inner: parts[2]}
		}
	}
	return m
}
