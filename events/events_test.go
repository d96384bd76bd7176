package events

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/report"
)

func TestEncodeDecodeRoundTripEveryKind(t *testing.T) {
	samples := []Event{
		&BuildRequested{Header: Header{ID: "a", BuildID: "b1"}, Reason: "cli", Direct: true},
		&RepoClone{Header: Header{ID: "c", BuildID: "b1"}, Repository: "r"},
		&RepoCloned{Header: Header{ID: "d", BuildID: "b1"}, Repository: "r", Failure: &report.Issue{Code: report.CodeCloneAuth}},
		&RepoPruned{Header: Header{ID: "e", BuildID: "b1"}, Outcome: RepoOutcome{Repository: "r", DocFiles: 3}},
		&ContentReady{Header: Header{ID: "f", BuildID: "b1"}, OutcomesRef: "sha256:x", Units: 1},
		&SiteRendered{Header: Header{ID: "g", BuildID: "b1"}, OK: true, Pages: 7},
		&SitePublished{Header: Header{ID: "g2", BuildID: "b1"}, Site: "sha256:x", Pages: 7},
		&BuildFinished{Header: Header{ID: "h", BuildID: "b1"}, Report: report.Report{RenderedPages: 7}},
		&StageFailed{Header: Header{ID: "i", BuildID: "b1"}, Stage: "render", Reason: "boom"},
		&LinksVerified{Header: Header{ID: "j", BuildID: "b1"}, Site: "sha256:x", LinkVerification: report.LinkVerification{Checked: 3}},
		&LinksReported{Header: Header{ID: "j2", BuildID: "b1"}, Attached: false, Error: "superseded"},
		&BrokenLink{Header: Header{ID: "k", BuildID: "b1"}, URL: "https://example.org/gone", StatusCode: 404},
		&UnitRender{Header: Header{ID: "l", BuildID: "b1"}, Unit: RepoOutcome{Repository: "r", ContentPath: "r"}, Spec: "sha256:s", Address: "a"},
		&UnitRendered{Header: Header{ID: "m", BuildID: "b1"}, Outcome: UnitOutcome{Key: "r", Outcome: UnitOutcomeRendered, Pages: 3}},
	}
	if len(samples) != len(kinds) {
		t.Fatalf("test covers %d kinds, package has %d", len(samples), len(kinds))
	}
	for _, ev := range samples {
		data, err := Encode(ev)
		if err != nil {
			t.Fatalf("encode %s: %v", ev.Subject(), err)
		}
		back, err := Decode(ev.Subject(), data)
		if err != nil {
			t.Fatalf("decode %s: %v", ev.Subject(), err)
		}
		h := back.Head()
		if h.Type != ev.Subject() || h.SchemaVersion != kinds[ev.Subject()].version || h.Time.IsZero() {
			t.Fatalf("%s: header not stamped: %+v", ev.Subject(), h)
		}
		if h.ID != ev.Head().ID || h.BuildID != "b1" {
			t.Fatalf("%s: header lost: %+v", ev.Subject(), h)
		}
	}
}

func TestEncodeRequiresIDs(t *testing.T) {
	if _, err := Encode(&RepoClone{Header: Header{BuildID: "b"}}); err == nil {
		t.Fatal("message without id encoded")
	}
	if _, err := Encode(&RepoClone{Header: Header{ID: "x"}}); err == nil {
		t.Fatal("message without build id encoded")
	}
}

func TestDecodeRejectsNewerSchemaAndUnknownSubject(t *testing.T) {
	_, err := Decode(SubjectRepoClone, []byte(`{"id":"x","build_id":"b","schema_version":99}`))
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("want newer-schema error, got %v", err)
	}
	if _, err := Decode("docweave.nope", []byte(`{}`)); err == nil {
		t.Fatal("unknown subject decoded")
	}
	if _, err := Decode(SubjectRepoClone, []byte(`{not json`)); err == nil {
		t.Fatal("malformed JSON decoded")
	}
}

func BenchmarkEncodeDecodeRepoPruned(b *testing.B) {
	ev := &RepoPruned{Header: Header{ID: "f", BuildID: "b1"},
		Outcome: RepoOutcome{Repository: "repo", Tree: "sha256:0123456789abcdef", DocFiles: 50, Timings: Timings{"clone": 12}}}
	for b.Loop() {
		data, err := Encode(ev)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Decode(SubjectRepoPruned, data); err != nil {
			b.Fatal(err)
		}
	}
}
