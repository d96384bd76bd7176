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
