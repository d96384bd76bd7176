package config

import (
	"fmt"
	"strings"
)

// sectionsWithKey lists the sections (key paths as the reference spells
// them, "build", "repositories[].auth") that have a key called key, other
// than the one at path, where it was found unknown. A key dedented out of
// its section, or written in the wrong one, is unknown where it stands
// but known there; naming that section beats suggesting the nearest
// spelling at the wrong level (shallow_depth at the top level was offered
// "site"; title, dedented out of generator, too).
func sectionsWithKey(path, key string) []string {
	here := strings.TrimSuffix(parentKey(path), ".")
	var out []string
	for _, p := range keyPaths() {
		parent, last := "", p
		if i := strings.LastIndex(p, "."); i >= 0 {
			parent, last = p[:i], p[i+1:]
		}
		if last != key || parent == "" || samePlace(parent, here) || oldKeys[p] {
			continue
		}
		out = append(out, parent)
	}
	return out
}

// samePlace compares a reference spelling ("repositories[]") with a
// decoded path ("repositories[2]").
func samePlace(reference, path string) bool {
	return reference == indexFree(path)
}

// indexFree replaces list indexes by "[]".
func indexFree(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] != '[' {
			b.WriteByte(path[i])
			continue
		}
		j := strings.IndexByte(path[i:], ']')
		if j < 0 {
			b.WriteString(path[i:])
			break
		}
		b.WriteString("[]")
		i += j
	}
	return b.String()
}

// misplacedMessage says where a key known elsewhere belongs.
func misplacedMessage(key string, sections []string) string {
	if len(sections) == 1 {
		return fmt.Sprintf("unknown key here; %s is a key of %s (%s.%s): indent it under %s", key, sections[0], sections[0], key, sectionLine(sections[0]))
	}
	lines := make([]string, len(sections))
	for i, s := range sections {
		lines[i] = sectionLine(s)
	}
	return fmt.Sprintf("unknown key here; %s is a key of %s: indent it under the one it belongs to (%s)", key, strings.Join(sections, ", "), strings.Join(lines, " or "))
}

// sectionLine is how a section is written in the file: "build:",
// "daemon: admin:", "an entry of repositories:", "auth: in an entry of
// repositories:".
func sectionLine(section string) string {
	colons := func(p string) string { return strings.ReplaceAll(p, ".", ": ") + ":" }
	list, rest, isList := strings.Cut(section, "[]")
	if !isList {
		return colons(section)
	}
	s := "an entry of " + colons(list)
	if rest = strings.TrimPrefix(rest, "."); rest != "" {
		s = colons(rest) + " in " + s
	}
	return s
}
