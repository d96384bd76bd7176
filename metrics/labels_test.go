package metrics

import (
	"fmt"
	"testing"
)

func TestLabelLimiterKeepsKnownValues(t *testing.T) {
	l := newLabelLimiter(2)
	if got := l.value("clone"); got != "clone" {
		t.Fatalf("value(clone) = %q", got)
	}
	if got := l.value(" clone "); got != "clone" {
		t.Fatalf("surrounding spaces not trimmed: %q", got)
	}
}

func TestLabelLimiterFoldsValuesBeyondLimit(t *testing.T) {
	l := newLabelLimiter(2)
	l.value("a")
	l.value("b")
	if got := l.value("c"); got != LabelOther {
		t.Fatalf("third distinct value = %q, want %q", got, LabelOther)
	}
	if got := l.value("a"); got != "a" {
		t.Fatalf("admitted value = %q after limit, want a", got)
	}
}

func TestLabelLimiterEmptyAndInvalidUTF8(t *testing.T) {
	l := newLabelLimiter(4)
	if got := l.value("  "); got != LabelUnknown {
		t.Fatalf("blank value = %q, want %q", got, LabelUnknown)
	}
	if got := l.value("bad\xffname"); got != "bad\uFFFDname" {
		t.Fatalf("invalid UTF-8 value = %q", got)
	}
}

func TestObserveDeliveryBoundsCardinality(t *testing.T) {
	m := New()
	for i := range maxLabelValues + 10 {
		m.ObserveDelivery(fmt.Sprintf("stage-%d", i), "ack", 0)
	}
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "docweave_stage_messages_total" {
			if n := len(f.GetMetric()); n != maxLabelValues+1 {
				t.Fatalf("stage_messages_total has %d series, want %d (limit plus %q)", n, maxLabelValues+1, LabelOther)
			}
			return
		}
	}
	t.Fatal("docweave_stage_messages_total not exported")
}
