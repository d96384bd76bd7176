package events

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBrokenLinkTravelsOnTheConfiguredSubject(t *testing.T) {
	ev := &BrokenLink{Header: Header{ID: "links.broken:b1:abc", BuildID: "b1"}, PublishOn: "team.docs.broken", URL: "https://example.org/x", StatusCode: 404, Reason: "not_found"}
	if ev.Subject() != "team.docs.broken" {
		t.Fatalf("subject %q, want the configured one", ev.Subject())
	}
	data, err := Encode(ev)
	if err != nil {
		t.Fatalf("a broken-link event on a configured subject must encode: %v", err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if raw["type"] != "team.docs.broken" || raw["schema_version"] != float64(BrokenLinkVersion) {
		t.Fatalf("header not stamped with the configured subject: %v", raw)
	}
	if _, leaked := raw["PublishOn"]; leaked {
		t.Fatal("PublishOn must not be part of the payload")
	}
	back, err := DecodeBrokenLink(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Subject() != "team.docs.broken" || back.URL != ev.URL || back.StatusCode != 404 {
		t.Fatalf("round trip lost data: %+v", back)
	}
}

func TestBrokenLinkDefaultsToTheSpecSubject(t *testing.T) {
	ev := &BrokenLink{Header: Header{ID: "x", BuildID: "b"}}
	if ev.Subject() != "builder.links.broken" {
		t.Fatalf("default subject %q", ev.Subject())
	}
}

func TestDecodeBrokenLinkRejectsNewerSchemaAndMissingIDs(t *testing.T) {
	if _, err := DecodeBrokenLink([]byte(`{"id":"x","build_id":"b","schema_version":2}`)); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("want newer-schema error, got %v", err)
	}
	if _, err := DecodeBrokenLink([]byte(`{"id":"x","schema_version":1}`)); err == nil {
		t.Fatal("event without build_id decoded")
	}
	if _, err := DecodeBrokenLink([]byte(`[`)); err == nil {
		t.Fatal("malformed JSON decoded")
	}
}

func TestLinksVerifiedFlattensTheFigures(t *testing.T) {
	ev := &LinksVerified{Header: Header{ID: "links.verified:b", BuildID: "b"}, Site: "sha256:1"}
	ev.Checked, ev.Broken, ev.Cached = 10, 2, 7
	data, err := Encode(ev)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"checked":10`) || !strings.Contains(string(data), `"cached":7`) {
		t.Fatalf("figures are not top-level fields: %s", data)
	}
	back, err := Decode(SubjectLinksVerified, data)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.(*LinksVerified); got.Broken != 2 || got.Site != "sha256:1" {
		t.Fatalf("round trip lost data: %+v", got)
	}
}
