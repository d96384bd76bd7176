package pages

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gohugoio/hugo/resources/kinds"
	"github.com/gohugoio/hugo/resources/page/pagemeta"
)

// A section's front matter may say, through Hugo's cascade, that the
// files below it are no pages: hugoDocs keeps the fragments its pages
// include under content/en/_common/, whose _index.md cascades
// build: {render: never, list: never}. Hugo then neither renders nor
// lists them, yet a page can still include them (.Site.GetPage,
// .RenderShortcodes). Every other cascaded key could place or reshape
// pages beyond the file that says it, so cascade is cut down to its build
// options (cascadeBuild), which only take pages out.

// cascadeBuild returns the part of a cascade value docweave keeps: each
// entry's build options (build, or the older _build), with the entry's
// target when that names page kinds only. kept is nil when nothing is
// left. dropped names what was removed, for the author ("" when nothing
// was). A cascade may be one map or a list of them, as in Hugo.
func cascadeBuild(value any) (kept any, dropped string) {
	var entries []map[string]any
	list := false
	switch v := value.(type) {
	case map[string]any:
		entries = []map[string]any{v}
	case []any:
		list = true
		for _, e := range v {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, "an entry that is not a mapping"
			}
			entries = append(entries, m)
		}
	case []map[string]any:
		list, entries = true, v
	default:
		return nil, fmt.Sprintf("%v is not a mapping", value)
	}
	var out []any
	var removed []string
	for _, e := range entries {
		entry, gone := cascadeEntryBuild(e)
		removed = append(removed, gone...)
		if entry != nil {
			out = append(out, entry)
		}
	}
	slices.Sort(removed)
	removed = slices.Compact(removed)
	dropped = strings.Join(removed, ", ")
	switch {
	case len(out) == 0:
		return nil, dropped
	case !list && len(out) == 1:
		return out[0], dropped
	}
	return out, dropped
}

// cascadeEntryBuild keeps the build options of one cascade entry (nil
// when it has none Hugo can decode) and names the keys it removes.
func cascadeEntryBuild(e map[string]any) (map[string]any, []string) {
	out := map[string]any{}
	var removed []string
	var target any
	for k, v := range e {
		switch lower := strings.ToLower(k); {
		case slices.Contains(buildKeys, lower):
			if _, err := pagemeta.DecodeBuildConfig(v); err != nil {
				removed = append(removed, k+" (not Hugo's build options)")
				continue
			}
			out["build"] = v
		case lower == "target" || lower == "_target":
			target = v
		default:
			removed = append(removed, k)
		}
	}
	if target != nil {
		kind, ok := kindOnlyTarget(target)
		if !ok {
			// A target by path, language or site is written for the
			// repository's own content tree, which is not the one
			// docweave renders; applied to all it would take out pages
			// the author kept.
			return nil, append(removed, "a target other than a page kind")
		}
		if kind != "" {
			out["target"] = map[string]any{"kind": kind}
		}
	}
	if len(out) == 0 || out["build"] == nil {
		return nil, removed
	}
	return out, removed
}

// kindOnlyTarget returns the kind pattern of a cascade target that names
// nothing but page kinds (Hugo's glob over home, page, section, taxonomy,
// term), and whether the target is of that form.
func kindOnlyTarget(target any) (string, bool) {
	m, ok := target.(map[string]any)
	if !ok {
		return "", false
	}
	kind := ""
	for k, v := range m {
		if !strings.EqualFold(k, "kind") {
			return "", false
		}
		s, ok := v.(string)
		if !ok {
			return "", false
		}
		kind = strings.ToLower(strings.TrimSpace(s))
	}
	if kind == "" {
		return "", true
	}
	for _, name := range strings.FieldsFunc(strings.Trim(kind, "{}"), func(r rune) bool { return r == ',' }) {
		if !slices.Contains(kinds.AllKindsInPages, strings.TrimSpace(name)) {
			return "", false
		}
	}
	return kind, true
}
