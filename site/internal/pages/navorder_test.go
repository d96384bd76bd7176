package pages

import (
	"reflect"
	"testing"
)

func TestNavOrderGivesWeightAndLinkTitleUnlessThePageSetsThem(t *testing.T) {
	for _, tc := range []struct {
		fm   map[string]any
		want map[string]any
	}{
		{map[string]any{"sidebar_position": 2.5, "sidebar_label": "Short"}, map[string]any{"weight": 2501, "linkTitle": "Short"}},
		{map[string]any{"sort_rank": 3, "nav_title": "FAQ"}, map[string]any{"weight": 3001, "linkTitle": "FAQ"}},
		{map[string]any{"nav_order": 0}, map[string]any{"weight": 1}},
		{map[string]any{"sort_rank": -1, "nav_order": "first", "nav_title": " "}, map[string]any{}},
		{map[string]any{"sidebar_position": 1, "Weight": 9, "sidebar_label": "Short", "LinkTitle": "Own"}, map[string]any{}},
	} {
		out := map[string]any{}
		navOrder(tc.fm, out)
		if !reflect.DeepEqual(out, tc.want) {
			t.Errorf("navOrder(%v) = %v, want %v", tc.fm, out, tc.want)
		}
	}
}

func TestCheckFrontMatterReadsOtherToolsMenuKeys(t *testing.T) {
	got, changed, problems := checkFrontMatter(map[string]any{"title": "Frequently asked", "sort_rank": 5, "nav_title": "FAQ"})
	want := map[string]any{"title": "Frequently asked", "weight": 5001, "linkTitle": "FAQ"}
	if !changed || len(problems) > 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("checkFrontMatter = %v, %v, %v; want %v", got, changed, problems, want)
	}
}
