package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/daemon"
	"github.com/docweave/docweave/metrics"
)

// The status view marks a needed stage that no process runs, names it as
// missing, and tells a stage nobody needs from one nobody runs.
func TestStatusMarksAStageNobodyRuns(t *testing.T) {
	v := &daemon.ControlView{
		Leader:    "host-a/123",
		Processes: []daemon.ProcessView{{Role: "stage", Host: "host-a", PID: 123, StartedAt: time.Unix(0, 0).UTC(), Stages: []string{"render"}}},
		Stages: []daemon.StageView{
			{Name: "assemble", Consumer: false},
			{Name: "render", Processes: 1, Consumer: true, Lag: metrics.ConsumerLag{Pending: 4}},
			{Name: "verifylinks"},
		},
		Needed: []string{"assemble", "render"},
	}
	var out bytes.Buffer
	missing := printControlView(&out, v)
	if len(missing) != 1 || missing[0] != "assemble" {
		t.Fatalf("missing %v, want assemble", missing)
	}
	text := out.String()
	for _, want := range []string{"leader: host-a/123", "stage on host-a (pid 123", "published: nothing yet"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	rows := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 1 {
			rows[f[0]] = strings.Join(f[1:], " ")
		}
	}
	for stage, want := range map[string]string{"assemble": "NONE - - -", "render": "1 4 0 0", "verifylinks": "0 (not needed) - - -"} {
		if rows[stage] != want {
			t.Errorf("row %s = %q, want %q in\n%s", stage, rows[stage], want, text)
		}
	}
}
