package pages

import (
	"reflect"
	"strings"
	"testing"
)

// Of a cascade only the build options stay: as written when that is all
// it holds, cut down (with a problem naming what went) otherwise, in
// either of Hugo's forms (one map, a list of maps).
func TestCheckFrontMatterKeepsTheBuildOptionsOfACascade(t *testing.T) {
	never := map[string]any{"render": "never", "list": "never"}
	for _, tc := range []struct {
		name    string
		cascade any
		want    any // nil: the key is dropped
		problem string
	}{
		{"build only", map[string]any{"build": never}, map[string]any{"build": never}, ""},
		{"older _build", map[string]any{"_build": never}, map[string]any{"_build": never}, ""},
		{"list with a kind target", []any{map[string]any{"build": never, "_target": map[string]any{"kind": "page"}}},
			[]any{map[string]any{"build": never, "_target": map[string]any{"kind": "page"}}}, ""},
		{"build and params", map[string]any{"build": never, "params": map[string]any{"x": 1}, "url": "/"},
			map[string]any{"build": never}, "params, url"},
		{"path target", []any{map[string]any{"build": never, "target": map[string]any{"path": "/blog/**"}}}, nil, "a target other than a page kind"},
		{"no build", map[string]any{"type": "docs"}, nil, "type"},
		{"bad build", map[string]any{"build": "soon"}, nil, "not Hugo's build options"},
		{"not a map", "yes", nil, "not a mapping"},
	} {
		got, _, problems := checkFrontMatter(map[string]any{"title": "T", "cascade": tc.cascade})
		if !reflect.DeepEqual(got["cascade"], tc.want) {
			t.Errorf("%s: cascade → %#v, want %#v", tc.name, got["cascade"], tc.want)
		}
		all := strings.Join(problems, "\n")
		if (tc.problem == "") != (all == "") || !strings.Contains(all, tc.problem) {
			t.Errorf("%s: problems %q, want one naming %q", tc.name, all, tc.problem)
		}
	}
}
