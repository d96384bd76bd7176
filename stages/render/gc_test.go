package render

import (
	"runtime/debug"
	"testing"
)

func TestSetGCPercentRaisesTheDefaultButKeepsTheOperatorsChoice(t *testing.T) {
	orig := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(orig) })

	if got := setGCPercent(""); got != gcPercent {
		t.Errorf("GOGC unset, target 100: now %d, want %d", got, gcPercent)
	}
	debug.SetGCPercent(100)
	if got := setGCPercent("100"); got != 100 {
		t.Errorf("GOGC=100 set by the operator: now %d, want 100 kept", got)
	}
	debug.SetGCPercent(400)
	if got := setGCPercent(""); got != 400 {
		t.Errorf("target 400 already: now %d, want 400 kept", got)
	}
	debug.SetGCPercent(-1)
	if got := setGCPercent(""); got != -1 {
		t.Errorf("collector off: now %d, want it kept off", got)
	}
}
