package bench

import (
	"context"
	"strings"
	"testing"
)

func TestRunChildMeasuresMemoryAndOutput(t *testing.T) {
	// sh allocating nothing special still has a resident set above zero.
	run, err := runChild(context.Background(), "/bin/sh", []string{"BENCH_WORD=farm"}, "-c", "echo $BENCH_WORD")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(run.Stdout)) != "farm" {
		t.Fatalf("stdout %q", run.Stdout)
	}
	if run.MaxRSSB <= 0 || run.Wall <= 0 {
		t.Fatalf("max RSS %d, wall %v", run.MaxRSSB, run.Wall)
	}
}

func TestRunChildReportsTheFailure(t *testing.T) {
	_, err := runChild(context.Background(), "/bin/sh", nil, "-c", "echo no repositories >&2; exit 3")
	if err == nil || !strings.Contains(err.Error(), "no repositories") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("got %v", err)
	}
}

func TestRunChildMeasuresUserCPU(t *testing.T) {
	run, err := runChild(context.Background(), "/bin/sh", nil, "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done")
	if err != nil {
		t.Fatal(err)
	}
	if run.UserCPU <= 0 || run.UserCPU > run.Wall {
		t.Fatalf("user CPU %v of a busy loop, wall %v", run.UserCPU, run.Wall)
	}
}
