package mdcode

import (
	"reflect"
	"testing"
)

func TestFencedRanges(t *testing.T) {
	text := "a\n```go\nx\n```\nb\n````\n```\ny\n````\n~~~\nopen"
	got := FencedRanges([]byte(text))
	want := [][2]int{{2, 14}, {16, 32}, {32, len(text)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FencedRanges = %v, want %v", got, want)
	}
}

// A fence in a nested list item is indented four spaces or more; reading
// it as text made the item's closing fence open a block that swallowed
// the rest of the page.
func TestFenceTrackerInNestedListItems(t *testing.T) {
	lines := []string{"- a", "  ```", "  x", "  ```", "    ```diff", "    y", "  ```", "after", "```md", "    ```", "x", "```", "after"}
	want := []bool{false, true, true, true, true, true, true, false, true, true, true, true, false}
	in := FenceTracker()
	for i, l := range lines {
		if got := in(l); got != want[i] {
			t.Errorf("line %d %q: in fence = %v, want %v", i+1, l, got, want[i])
		}
	}
}
