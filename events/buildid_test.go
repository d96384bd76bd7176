package events

import (
	"testing"
	"time"
)

func TestNewBuildIDIsUniqueAndSortable(t *testing.T) {
	prev := NewBuildID()
	for i := 0; i < 100; i++ {
		time.Sleep(10 * time.Microsecond)
		next := NewBuildID()
		if next <= prev || len(next) != len(prev) {
			t.Fatalf("build IDs do not sort by start: %s then %s", prev, next)
		}
		prev = next
	}
}
