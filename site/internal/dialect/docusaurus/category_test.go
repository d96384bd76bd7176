package docusaurus

import (
	"strings"
	"testing"
)

func TestParseCategoryReadsLabelAndPosition(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       Category
	}{
		{"_category_.json", `{"label": "Getting around", "position": 2.5, "link": {"type": "generated-index"}}`, Category{"Getting around", 2.5, true}},
		{"_category_.yml", "label: Tools\nposition: 0\n", Category{"Tools", 0, true}},
		{"_category_.json", `{"collapsed": false}`, Category{}},
		{"_category_.json", `{"label": 7, "position": "first"}`, Category{}},
	} {
		got, problem := ParseCategory(tc.name, []byte(tc.data))
		if problem != "" || got != tc.want {
			t.Errorf("ParseCategory(%s) = %+v, %q; want %+v", tc.data, got, problem, tc.want)
		}
	}
	if _, problem := ParseCategory("_category_.json", []byte(`{"label": `)); !strings.Contains(problem, "_category_.json cannot be read") {
		t.Errorf("problem = %q", problem)
	}
}
