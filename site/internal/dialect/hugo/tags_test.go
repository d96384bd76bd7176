package hugo

import "testing"

func TestApplyEditsSkipsOverlaps(t *testing.T) {
	got := applyEdits([]byte("0123456789"), []edit{{start: 12, end: 13, text: "x"}, {start: 14, end: 14, text: "+"}, {start: 13, end: 16}}, 10)
	if string(got) != "01x3+456789" {
		t.Errorf("applyEdits = %q", got)
	}
}
