package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docweave/docweave/bench"
)

// TestBenchRunQuickWritesEveryRow runs `docweave bench run --quick` — the
// real farm, git server, builds, daemon, verifier and ingress server at
// their smallest — and checks that the JSON has every figure, measured.
func TestBenchRunQuickWritesEveryRow(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "bench.json")
	svgPath := filepath.Join(dir, "chart", "performance.svg")
	res := run(t, dir, nil, "bench", "run", "--quick", "--json", jsonPath, "--svg", svgPath)
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	rep, err := bench.ReadJSON(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Settings.Quick || len(rep.Settings.Sizes) != 1 || rep.Machine.Cores < 1 {
		t.Fatalf("settings/machine not recorded: %+v %+v", rep.Settings, rep.Machine)
	}
	size := rep.Settings.Sizes[0].String()
	perSize := []string{bench.RowColdBuild, bench.RowColdFloor, bench.RowColdPeakRSS, bench.RowFloorPeakRSS,
		bench.RowNoChange, bench.RowOneChanged, bench.RowDaemonHeapGrowth, bench.RowLinksCold, bench.RowLinksWarm}
	for _, id := range perSize {
		row, ok := rep.Find(id, size)
		if !ok {
			t.Errorf("row %s at %s missing", id, size)
			continue
		}
		if row.NotMeasured != "" || row.Summary.Median <= 0 && id != bench.RowDaemonHeapGrowth {
			t.Errorf("row %s not measured: %q (median %v)", id, row.NotMeasured, row.Summary.Median)
		}
	}
	for _, id := range []string{bench.RowIngress304, bench.RowIngress200} {
		if row, ok := rep.Find(id, ""); !ok || row.NotMeasured != "" || row.Summary.Median <= 0 {
			t.Errorf("row %s: %+v", id, row)
		}
	}
	cold, _ := rep.Find(bench.RowColdBuild, size)
	if cold.Ratio == nil || len(cold.Summary.Samples) != rep.Settings.Repeat || cold.Target == "" || cold.Met == nil {
		t.Errorf("cold build row lacks its ratio, samples or verdict: %+v", cold)
	}
	if !strings.Contains(res.stdout, "| cold direct build | "+size+" |") || !strings.Contains(res.stdout, "Machine:") {
		t.Errorf("table not printed:\n%s", res.stdout)
	}
	svg, err := os.ReadFile(svgPath)
	if err != nil || !strings.HasPrefix(string(svg), "<svg") || !strings.Contains(string(svg), "× floor") {
		t.Errorf("chart not written (%v):\n%s", err, svg)
	}

	// The chart and table can be redrawn from the JSON alone.
	again := filepath.Join(dir, "again.svg")
	res = run(t, dir, nil, "bench", "chart", "--json", jsonPath, "--svg", again)
	if redrawn, err := os.ReadFile(again); res.code != 0 || err != nil || string(redrawn) != string(svg) {
		t.Errorf("bench chart: exit %d, %v; redrawn chart differs: %s", res.code, err, res.stderr)
	}
	var raw map[string]any
	data, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(data, &raw); err != nil || raw["schema_version"] != float64(bench.SchemaVersion) {
		t.Errorf("JSON schema_version: %v (%v)", raw["schema_version"], err)
	}
}

func TestBenchRunRejectsBadSizes(t *testing.T) {
	res := run(t, t.TempDir(), nil, "bench", "run", "--sizes", "twenty")
	if res.code != 2 || !strings.Contains(res.stderr, "--sizes") || !strings.Contains(res.stderr, "REPOSxPAGES") {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
	res = run(t, t.TempDir(), nil, "bench", "run", "--repos", "3")
	if res.code != 2 || !strings.Contains(res.stderr, "--repos and --pages") {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
}

func TestBenchRenderFloorRejectsABadRepository(t *testing.T) {
	dir := t.TempDir()
	res := run(t, dir, nil, "bench", "render-floor", "--project", dir, "--publish", filepath.Join(dir, "out"), "--repository", "nameonly")
	if res.code != 1 || !strings.Contains(res.stderr, `repository "nameonly": expected name=content/path`) {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
}

func TestBenchFarmRequiresADirectory(t *testing.T) {
	res := run(t, t.TempDir(), nil, "bench", "farm")
	if res.code != 2 || !strings.Contains(res.stderr, "--dir: required") {
		t.Fatalf("exit %d, stderr %q", res.code, res.stderr)
	}
}

// TestBenchFarmServesWhatItPrints starts `docweave bench farm`, clones a
// repository from the URL it prints, and stops it with an interrupt.
func TestBenchFarmServesWhatItPrints(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary, "bench", "farm", "--dir", filepath.Join(dir, "farm"), "--repos", "2", "--pages", "3", "--link-hosts", "1")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	sc := bufio.NewScanner(stdout)
	var url string
	for sc.Scan() {
		line := sc.Text()
		if _, rest, ok := strings.Cut(line, `url: "`); ok && strings.Contains(line, "name: repo01") {
			url, _, _ = strings.Cut(rest, `"`)
		}
		if strings.HasPrefix(line, "output:") {
			break
		}
	}
	if url == "" {
		t.Fatal("no URL for repo01 printed")
	}
	clone := exec.Command("git", "clone", "-q", url, filepath.Join(dir, "clone"))
	clone.Env = cmd.Env
	if out, err := clone.CombinedOutput(); err != nil {
		t.Fatalf("clone %s: %v: %s", url, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "clone", "docs", "howto", "page002.md")); err != nil {
		t.Fatalf("cloned farm lacks its pages: %v", err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("bench farm did not stop cleanly on interrupt: %v", err)
	}
}
