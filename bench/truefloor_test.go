package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for docweave-bench's hidden
// render-floor command, so a floor runs for real in a test: clones over
// the farm's Git server and Hugo in a child process.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "render-floor" {
		os.Exit(renderFloorChild(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// repeated is a flag given once per value.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

func renderFloorChild(args []string) int {
	fs := flag.NewFlagSet("render-floor", flag.ContinueOnError)
	project, publish, title := fs.String("project", "", ""), fs.String("publish", "", ""), fs.String("title", "", "")
	minimal := fs.Bool("minimal", false, "")
	var repos repeated
	fs.Var(&repos, "repository", "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	res, err := RenderFloor(context.Background(), *project, *publish, *title, repos, *minimal, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		return 1
	}
	return 0
}

// TestTrueFloorIsOneMeasuredSample: the true floor clones and renders with
// one-line templates in one timed sample, and charges the user CPU of its
// children; the floor with our theme renders the same pages.
func TestTrueFloorIsOneMeasuredSample(t *testing.T) {
	f := newTestFarm(t, Size{Repos: 2, Pages: 2})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f.opts.FloorBinary = self
	ctx := context.Background()
	tf, err := f.floor(ctx, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := f.floor(ctx, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if tf.Pages == 0 || tf.Pages != fl.Pages {
		t.Fatalf("true floor rendered %d pages, the floor %d", tf.Pages, fl.Pages)
	}
	for name, s := range map[string]floorSample{"true floor": tf, "floor": fl} {
		if s.RenderSeconds <= 0 || s.Seconds <= s.RenderSeconds || s.UserCPUSeconds <= 0 || s.RSSMB <= 0 {
			t.Errorf("%s: not a measured sample: %+v", name, s)
		}
	}
}

// TestTrueFloorRowsAreRunByRun: the headline ratios are the medians of
// each round's cold build ÷ that round's true floor, in wall time and in
// user CPU, with the target reported; cold user CPU is set against
// the floor's.
func TestTrueFloorRowsAreRunByRun(t *testing.T) {
	var s coldSeries
	// Round by round the ratios are 1.5, 1.2 and 1.1 in wall time, 2, 1.25
	// and 1 in user CPU; the ratio of the medians would be 1.2 and 1.25.
	s.add(coldSample{Seconds: 3, UserCPUSeconds: 4}, floorSample{Seconds: 2.5, UserCPUSeconds: 3}, floorSample{Seconds: 2, UserCPUSeconds: 2})
	s.add(coldSample{Seconds: 1.2, UserCPUSeconds: 2.5}, floorSample{Seconds: 1.1, UserCPUSeconds: 2}, floorSample{Seconds: 1, UserCPUSeconds: 2})
	s.add(coldSample{Seconds: 2.2, UserCPUSeconds: 4}, floorSample{Seconds: 2.1, UserCPUSeconds: 2}, floorSample{Seconds: 2, UserCPUSeconds: 4})
	r := &Report{SchemaVersion: SchemaVersion, Settings: Settings{Repeat: 3}, Rows: trueFloorRows("2x5", s, nil)}
	r.applyTargets(targets)

	wall, _ := r.Find(RowColdVsTrueFloor, "2x5")
	cpu, _ := r.Find(RowColdCPUVsTrueFloor, "2x5")
	if wall.Summary.Median != 1.2 || len(wall.Summary.Samples) != 3 || cpu.Summary.Median != 1.25 {
		t.Fatalf("ratios not run by run: wall %+v cpu %+v", wall.Summary, cpu.Summary)
	}
	if wall.Target != "≤ 1.25× (moonshot 1.1×)" || wall.Met == nil || !*wall.Met || cpu.Met == nil || !*cpu.Met {
		t.Fatalf("target not reported: %+v %+v", wall, cpu)
	}
	trueFloor, _ := r.Find(RowColdTrueFloor, "2x5")
	if trueFloor.Summary.Median != 2 {
		t.Fatalf("true floor wall time %+v", trueFloor.Summary)
	}
	coldCPU, _ := r.Find(RowColdUserCPU, "2x5")
	if coldCPU.Ratio == nil || *coldCPU.Ratio != 2 {
		t.Fatalf("cold user CPU against the floor's (median 4 ÷ 2): %+v", coldCPU)
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2.00× floor CPU", "| 1.20 × |", "≤ 1.25× (moonshot 1.1×)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}

	missed := trueFloorRows("2x5", s, fmt.Errorf("floor 0 of 2x5: git clone failed"))
	for _, row := range missed {
		if row.NotMeasured == "" {
			t.Errorf("row %s measured without its samples", row.ID)
		}
	}
}
