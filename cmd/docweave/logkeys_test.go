package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// requireUniqueKeys fails when a JSON log line of a run names a top-level
// key twice (the render of a unit logged "unit" twice).
func requireUniqueKeys(t *testing.T, logs string) {
	t.Helper()
	lines := 0
	for _, line := range strings.Split(logs, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		lines++
		dec := json.NewDecoder(strings.NewReader(line))
		if _, err := dec.Token(); err != nil {
			t.Fatalf("log line is not JSON: %s", line)
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				t.Fatalf("log line is not JSON: %s", line)
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("log line is not JSON: %s", line)
			}
			if key := tok.(string); seen[key] {
				t.Errorf("key %q twice in a log line: %s", key, line)
			} else {
				seen[key] = true
			}
		}
	}
	if lines == 0 {
		t.Fatal("no JSON log line to check")
	}
}
