package logging

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestNewJSONWritesStructuredFields(t *testing.T) {
	var buf bytes.Buffer
	log, err := New(&buf, FormatAuto, "info")
	if err != nil {
		t.Fatal(err)
	}
	log.Info().Str(FieldStage, "clone").Msg("hello")
	log.Debug().Msg("hidden")
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &line); err != nil {
		t.Fatalf("auto format on a buffer must be JSON, got %q: %v", buf.String(), err)
	}
	if line[FieldStage] != "clone" || line["message"] != "hello" {
		t.Fatalf("unexpected line %v", line)
	}
}

func TestNewRejectsBadFlags(t *testing.T) {
	if _, err := New(&bytes.Buffer{}, "xml", "info"); err == nil {
		t.Fatal("format xml accepted")
	}
	if _, err := New(&bytes.Buffer{}, FormatJSON, "loud"); err == nil {
		t.Fatal("level loud accepted")
	}
}
