package ingress

import (
	"errors"
	"testing"
)

func TestStoreLifecycle(t *testing.T) {
	s := NewStore(nil)
	if s.Ready() || s.Current() != nil {
		t.Fatal("a new store must not be ready")
	}
	first, changed, err := s.Publish(Project(sampleObjects("1", "2", true)))
	if err != nil || !changed {
		t.Fatalf("first publish: changed=%v err=%v", changed, err)
	}
	if !s.Ready() || s.Current() != first || s.Generation() != 1 {
		t.Fatalf("after first publish: ready=%v generation=%d", s.Ready(), s.Generation())
	}

	same, changed, err := s.Publish(Project(sampleObjects("1", "2", true)))
	if err != nil || changed {
		t.Fatalf("identical publish: changed=%v err=%v", changed, err)
	}
	if same != first || s.Current() != first {
		t.Fatal("an identical projection must keep the served snapshot")
	}
	if s.Generation() != 2 {
		t.Fatalf("generation = %d, want 2 (every publish counts)", s.Generation())
	}

	next, changed, _ := s.Publish(Project(sampleObjects("1", "3", false)))
	if !changed || s.Current() != next || next.ETag == first.ETag {
		t.Fatal("a changed projection must be served with a new ETag")
	}
}

func TestStoreErrorsKeepTheListing(t *testing.T) {
	s := NewStore(nil)
	good, _, _ := s.Publish(Project(sampleObjects("1", "2", true)))
	boom := errors.New("boom")
	s.ReportError(boom)
	if !errors.Is(s.LastError(), boom) {
		t.Fatalf("LastError = %v", s.LastError())
	}
	if s.Current() != good {
		t.Fatal("an error must not replace the served listing")
	}
	if _, _, err := s.Publish(Project(sampleObjects("1", "2", true))); err != nil {
		t.Fatal(err)
	}
	if s.LastError() != nil {
		t.Fatalf("LastError after a successful publish = %v", s.LastError())
	}
}
