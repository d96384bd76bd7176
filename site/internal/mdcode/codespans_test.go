package mdcode

import (
	"reflect"
	"testing"
)

func TestCodeSpanRanges(t *testing.T) {
	text := "a `x` b ``y ` z`` c `open\n\n```\nfenced `q`\n```\ne `f`"
	fences := FencedRanges([]byte(text))
	got := CodeSpanRanges([]byte(text), fences)
	var spans []string
	for _, r := range got {
		spans = append(spans, text[r[0]:r[1]])
	}
	want := []string{"`x`", "``y ` z``", "`f`"}
	if !reflect.DeepEqual(spans, want) {
		t.Fatalf("spans %q, want %q", spans, want)
	}
	if CodeSpanRanges([]byte("no backticks"), nil) != nil {
		t.Fatal("spans in text without backticks")
	}
}
