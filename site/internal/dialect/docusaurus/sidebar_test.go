package docusaurus

import (
	"reflect"
	"testing"
)

func TestSidebarGivesWeightAndLinkTitleUnlessThePageSetsThem(t *testing.T) {
	out := map[string]any{}
	Sidebar(map[string]any{"sidebar_position": 2.5, "sidebar_label": "Short"}, out)
	if want := map[string]any{"weight": 2501, "linkTitle": "Short"}; !reflect.DeepEqual(out, want) {
		t.Errorf("Sidebar = %v, want %v", out, want)
	}
	out = map[string]any{}
	Sidebar(map[string]any{"sidebar_position": 1, "Weight": 9, "sidebar_label": "Short", "LinkTitle": "Own"}, out)
	if len(out) != 0 {
		t.Errorf("the page's own weight and linkTitle were overridden: %v", out)
	}
}
