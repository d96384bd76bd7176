package hotpaths

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/docweave/docweave/events"
)

// outcomes is the largest routine list of the pipeline: the outcomes of a
// 50-repository build, which the join stores aside and build.content_ready
// refers to.
func outcomes() []events.RepoOutcome {
	var out []events.RepoOutcome
	for r := 0; r < 50; r++ {
		out = append(out, events.RepoOutcome{
			Repository: fmt.Sprintf("repo%02d", r), ContentPath: fmt.Sprintf("repo%02d", r), Branch: "main",
			Commit: fmt.Sprintf("%040x", r), Tree: fmt.Sprintf("sha256:%064x", r), DocFiles: 100, Attempts: 1,
			Timings: events.Timings{"clone": 120, "join": 8},
		})
	}
	return out
}

func TestOutcomeListFixtureRoundTrips(t *testing.T) {
	data, err := json.Marshal(outcomes())
	if err != nil {
		t.Fatal(err)
	}
	var got []events.RepoOutcome
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 50 || got[49].Tree != outcomes()[49].Tree {
		t.Fatalf("round trip lost outcomes: %d", len(got))
	}
}

// BenchmarkOutcomeListEncode50 encodes the outcome list of a
// 50-repository build, as the join stores it.
func BenchmarkOutcomeListEncode50(b *testing.B) {
	list := outcomes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(list); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOutcomeListDecode50 decodes it, as the assemble stage does.
func BenchmarkOutcomeListDecode50(b *testing.B) {
	data, err := json.Marshal(outcomes())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var got []events.RepoOutcome
		if err := json.Unmarshal(data, &got); err != nil {
			b.Fatal(err)
		}
	}
}
