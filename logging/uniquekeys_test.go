package logging

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// repeatedKeys returns the top-level keys a JSON log line names more than
// once; tests of whole runs use it on every line they capture.
func repeatedKeys(t *testing.T, line string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	if _, err := dec.Token(); err != nil {
		t.Fatalf("not JSON: %q", line)
	}
	seen := map[string]bool{}
	var out []string
	for dec.More() {
		tok, _ := dec.Token()
		key := tok.(string)
		var v json.RawMessage
		_ = dec.Decode(&v)
		if seen[key] {
			out = append(out, key)
		}
		seen[key] = true
	}
	return out
}

// A field set on a logger handed down and again by the code it reaches
// appears once, with the last value, in the place of the first.
func TestJSONLinesNameEachKeyOnce(t *testing.T) {
	var buf bytes.Buffer
	log, err := New(&buf, FormatJSON, "info")
	if err != nil {
		t.Fatal(err)
	}
	unitLog := log.With().Str("unit", "handbook@v1").Logger()
	inner := unitLog.With().Str("unit", "docs/handbook/v1").Logger()
	inner.Info().Int("pages", 3).Msg("rendered")
	line := buf.String()
	if keys := repeatedKeys(t, line); len(keys) != 0 {
		t.Fatalf("repeated keys %v in %s", keys, line)
	}
	if !strings.HasPrefix(line, `{"level":"info","unit":"docs/handbook/v1",`) || !strings.HasSuffix(line, "\"message\":\"rendered\"}\n") {
		t.Fatalf("line %s", line)
	}
	buf.Reset()
	log.Info().Str("a", "x").Msg("plain")
	if !strings.HasPrefix(buf.String(), `{"level":"info","a":"x","time":`) {
		t.Fatalf("a line without repeats changed: %s", buf.String())
	}
}
