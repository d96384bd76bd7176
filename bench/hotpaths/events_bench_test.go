package hotpaths

import (
	"fmt"
	"testing"

	"github.com/docweave/docweave/events"
)

// contentReady is the largest routine message: the join of a 50-repository
// build, one outcome per repository.
func contentReady() *events.ContentReady {
	ev := &events.ContentReady{Header: events.Header{ID: "build.content_ready:b1", BuildID: "b1"}}
	for r := 0; r < 50; r++ {
		ev.Outcomes = append(ev.Outcomes, events.RepoOutcome{
			Repository: fmt.Sprintf("repo%02d", r), ContentPath: fmt.Sprintf("repo%02d", r), Branch: "main",
			Commit: fmt.Sprintf("%040x", r), Tree: fmt.Sprintf("sha256:%064x", r), DocFiles: 100, Attempts: 1,
			Timings: events.Timings{"clone": 120, "join": 8},
		})
	}
	return ev
}

func TestEventFixtureRoundTrips(t *testing.T) {
	data, err := events.Encode(contentReady())
	if err != nil {
		t.Fatal(err)
	}
	ev, err := events.Decode(events.SubjectContentReady, data)
	if err != nil {
		t.Fatal(err)
	}
	got := ev.(*events.ContentReady)
	if len(got.Outcomes) != 50 || got.Outcomes[49].Tree != contentReady().Outcomes[49].Tree {
		t.Fatalf("round trip lost outcomes: %d", len(got.Outcomes))
	}
}

// BenchmarkEventEncodeContentReady50 encodes the join message of a
// 50-repository build.
func BenchmarkEventEncodeContentReady50(b *testing.B) {
	ev := contentReady()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := events.Encode(ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEventDecodeContentReady50 decodes it, as the render stage does.
func BenchmarkEventDecodeContentReady50(b *testing.B) {
	data, err := events.Encode(contentReady())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := events.Decode(events.SubjectContentReady, data); err != nil {
			b.Fatal(err)
		}
	}
}
