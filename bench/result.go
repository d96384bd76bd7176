package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// SchemaVersion is the version of the JSON layout `docweave bench run`
// writes; scripts comparing runs check it.
const SchemaVersion = 1

// Row IDs: one per figure the issue asks for. A row's ID is the same at
// every size (the size is its own field), so runs compare row by row.
const (
	RowColdBuild   = "cold_build"          // docweave build, wall time
	RowColdFloor   = "cold_floor"          // git CLI clones + Hugo render of the same tree
	RowColdPeakRSS = "cold_build_peak_rss" // max RSS of the docweave build process
	// The true floor: git clones + Hugo with one-line templates, one sample.
	RowColdTrueFloor      = "cold_true_floor"              // wall time
	RowColdVsTrueFloor    = "cold_build_vs_true_floor"     // cold build ÷ true floor, wall, per round
	RowColdCPUVsTrueFloor = "cold_build_cpu_vs_true_floor" // the same in user CPU
	RowColdUserCPU        = "cold_build_user_cpu"          // user CPU of the build process and its children
	RowFloorUserCPU       = "cold_floor_user_cpu"          // user CPU of the floor's clones and render
	RowTrueFloorUserCPU   = "cold_true_floor_user_cpu"     // user CPU of the true floor's clones and render
	RowColdBaseline       = "cold_build_baseline"          // the same cold build by the baseline binary (--baseline)
	RowColdVsBaseline     = "cold_build_vs_baseline"       // cold build ÷ the baseline's, per pair of alternating runs
	RowUnitBuild          = "unit_build"                   // cold build of the largest repository alone, wall time
	RowUnitPeakRSS        = "unit_build_peak_rss"          // max RSS of that build
	RowFloorPeakRSS       = "cold_floor_peak_rss"          // max RSS of the floor's render process
	RowRenderTheme        = "render_theme"                 // Hugo render of the floor's project with our theme
	RowRenderMinimal      = "render_minimal"               // the same project with one-line templates
	RowNoChange           = "daemon_no_change"             // daemon trigger → skipped decision
	RowOneChanged         = "daemon_one_changed"           // daemon trigger → rebuilt with one repository changed
	RowDaemonHeapGrowth   = "daemon_heap_growth"           // live heap growth per successive daemon build
	RowLinksCold          = "links_cold"                   // link verification, empty cache
	RowLinksWarm          = "links_warm"                   // link verification, same site, warm cache
	RowIngress304         = "ingress_304_rate"             // revalidations answered 304 per second
	RowIngress200         = "ingress_200_rate"             // full listings answered 200 per second
)

// Report is one run of the benchmarks: what ran, where, and every figure.
type Report struct {
	SchemaVersion int       `json:"schema_version"`
	StartedAt     time.Time `json:"started_at"`
	FinishedAt    time.Time `json:"finished_at"`
	Command       string    `json:"command"`
	Settings      Settings  `json:"settings"`
	Machine       Machine   `json:"machine"`
	Rows          []Row     `json:"rows"`
}

// Settings are the knobs of a run, recorded so a figure can be reproduced.
type Settings struct {
	Sizes            []Size `json:"sizes"`
	Repeat           int    `json:"repeat"`
	DaemonBuilds     int    `json:"daemon_builds"`
	CloneConcurrency int    `json:"clone_concurrency"`
	LinkHosts        int    `json:"link_hosts"`
	LinkLatencyMS    int64  `json:"link_latency_ms"`
	IngressRequests  int    `json:"ingress_requests"`
	Quick            bool   `json:"quick"`
	// Baseline is the baseline binary's version, when a run had one.
	Baseline string `json:"baseline,omitempty"`
}

// Size is a farm size: Repos repositories of Pages pages each.
type Size struct {
	Repos int `json:"repos"`
	Pages int `json:"pages"`
}

// String is the size as the table and the flags write it: "20x50".
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.Repos, s.Pages) }

// Row is one figure at one size. Ratio is the headline where a reference
// exists: the figure divided by its floor (FloorRow) or, for the
// one-repository rebuild, by the cold build. Target is the target
// as text and Met whether the median meets it; NotMeasured says why a row
// has no figure instead of leaving a made-up one.
type Row struct {
	ID          string   `json:"id"`
	Label       string   `json:"label"`
	Size        string   `json:"size,omitempty"`
	Unit        string   `json:"unit"`
	Summary     Summary  `json:"summary"`
	Reference   string   `json:"reference,omitempty"` // the row ID the ratio is taken against
	Ratio       *float64 `json:"ratio,omitempty"`
	Target      string   `json:"target,omitempty"`
	Met         *bool    `json:"met,omitempty"`
	NotMeasured string   `json:"not_measured,omitempty"`
	Note        string   `json:"note,omitempty"`
}

// Find returns the row with id at size, if any.
func (r *Report) Find(id, size string) (Row, bool) {
	for _, row := range r.Rows {
		if row.ID == id && row.Size == size {
			return row, true
		}
	}
	return Row{}, false
}

// WriteJSON writes the report to path, indented for people and diffs.
func (r *Report) WriteJSON(path string) error {
	return writeJSONFile(path, r, "bench report")
}

// writeJSONFile writes v as indented JSON to path; what names it in errors.
func writeJSONFile(path string, v any, what string) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", what, err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s %s: %w", what, path, err)
	}
	return nil
}

// ReadJSON reads a report written by WriteJSON, so the table and the chart
// can be redrawn from an earlier run.
func ReadJSON(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read bench report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("bench report %s: %w", path, err)
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("bench report %s: schema_version %d, this docweave reads %d", path, r.SchemaVersion, SchemaVersion)
	}
	return &r, nil
}
