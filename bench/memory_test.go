package bench

import "testing"

func TestProcessMemoryReadings(t *testing.T) {
	if heap := liveHeapMB(); heap <= 0 {
		t.Fatalf("live heap %v MB", heap)
	}
	if rss := residentMB(); rss <= 0 {
		t.Fatalf("resident set %v MB (is /proc mounted?)", rss)
	}
}
