package artifact

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRecordsContract runs the same checks against every Store: a record
// reads back as written, is replaced by a later put, is missing as
// ErrNotFound, and unsafe names and oversized values are refused.
func TestRecordsContract(t *testing.T) {
	ctx := context.Background()
	local, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	objects, err := OpenObjects(ctx, testJetStream(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]Store{"local": local, "objects": objects} {
		t.Run(name, func(t *testing.T) {
			if _, err := s.Record(ctx, "unit-0123"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("missing record: %v, want ErrNotFound", err)
			}
			if err := s.PutRecord(ctx, "unit-0123", []byte(`{"v":1}`)); err != nil {
				t.Fatal(err)
			}
			if err := s.PutRecord(ctx, "unit-0123", []byte(`{"v":2}`)); err != nil {
				t.Fatal(err)
			}
			got, err := s.Record(ctx, "unit-0123")
			if err != nil || string(got) != `{"v":2}` {
				t.Fatalf("record = %q, %v; want the second value", got, err)
			}
			for _, bad := range []string{"", "../x", "A", "a/b", ".hidden", strings.Repeat("a", 129)} {
				if err := s.PutRecord(ctx, bad, []byte("x")); err == nil {
					t.Errorf("name %q accepted", bad)
				}
				if _, err := s.Record(ctx, bad); err == nil {
					t.Errorf("name %q read", bad)
				}
			}
			if err := s.PutRecord(ctx, "big", make([]byte, maxRecordBytes+1)); err == nil {
				t.Error("an oversized record was accepted")
			}
		})
	}
}

func TestLocalPruneRecordsKeepsWhatIsKeptAndWhatIsYoung(t *testing.T) {
	ctx := context.Background()
	l, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"keep", "old", "young"} {
		if err := l.PutRecord(ctx, n, []byte(n)); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := l.PruneRecords(map[string]bool{"keep": true}, time.Hour); err != nil || n != 0 {
		t.Fatalf("young records pruned: %d %v", n, err)
	}
	if n, err := l.PruneRecords(map[string]bool{"keep": true}, 0); err != nil || n != 2 {
		t.Fatalf("pruned %d %v, want 2", n, err)
	}
	if _, err := l.Record(ctx, "keep"); err != nil {
		t.Fatalf("kept record gone: %v", err)
	}
	if _, err := l.Record(ctx, "old"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pruned record still there: %v", err)
	}
}
