package bench

import (
	"bytes"
	"encoding/xml"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// sampleReport is a report as a run would produce it, with one row that
// could not be measured.
func sampleReport() *Report {
	r := &Report{SchemaVersion: SchemaVersion, Settings: Settings{Repeat: 3}, Machine: Machine{CPU: "Test CPU", Cores: 2}}
	r.Rows = []Row{
		row(RowColdBuild, "cold direct build", "2x5", "s", []float64{1.2, 1.3, 1.1}, nil, RowColdFloor),
		row(RowColdFloor, "floor", "2x5", "s", []float64{1.0, 1.0, 1.0}, nil, ""),
		row(RowColdPeakRSS, "cold build peak RSS", "2x5", "MB", []float64{800, 810, 790}, nil, RowFloorPeakRSS),
		row(RowFloorPeakRSS, "floor render peak RSS", "2x5", "MB", []float64{400, 400, 400}, nil, ""),
		row(RowNoChange, "no change", "2x5", "s", []float64{0.05, 0.06, 0.04}, nil, ""),
		row(RowOneChanged, "one changed", "2x5", "s", []float64{0.5, 0.5, 0.5}, nil, RowColdBuild),
		row(RowLinksCold, "links cold", "2x5", "s", nil, errors.New("the verifier <failed> | badly"), ""),
		row(RowIngress304, "ingress 304", "", "req/s", []float64{9000, 9100, 8900}, nil, ""),
	}
	r.applyTargets(targets)
	return r
}

func TestApplyTargetsRatiosAndVerdicts(t *testing.T) {
	r := sampleReport()
	cold, _ := r.Find(RowColdBuild, "2x5")
	if cold.Ratio == nil || *cold.Ratio < 1.19 || *cold.Ratio > 1.21 || cold.Met == nil || !*cold.Met {
		t.Fatalf("cold build row %+v", cold)
	}
	rss, _ := r.Find(RowColdPeakRSS, "2x5")
	if rss.Ratio == nil || *rss.Ratio != 2 || rss.Met == nil || *rss.Met {
		t.Fatalf("RSS row: the 500 MB target applies to the median, not the ratio: %+v", rss)
	}
	one, _ := r.Find(RowOneChanged, "2x5")
	if one.Met == nil || *one.Met || one.Target != "≤ 15% of cold build" {
		t.Fatalf("one-changed at 0.42 of the cold build must miss ≤ 15%%: %+v", one)
	}
	links, _ := r.Find(RowLinksCold, "2x5")
	if links.NotMeasured == "" || links.Ratio != nil || links.Met != nil {
		t.Fatalf("a failed row must stay unmeasured: %+v", links)
	}
}

func TestWriteTableShowsEveryRow(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTable(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"| cold direct build | 2x5 | 1.20 s |", "1.20× floor", "2.00× floor RSS", "| no change | 2x5 | 50 ms |", "**no**", "not measured", "9000 req/s", "Test CPU, 2 cores"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "<failed> | badly") {
		t.Errorf("a reason with a pipe breaks the Markdown table:\n%s", out)
	}
}

func TestWriteSVGIsWellFormedAndDrawsThePairs(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSVG(&buf, sampleReport()); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	rects := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("not well-formed XML: %v\n%s", err, buf.String())
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
			rects++
		}
	}
	// background + two bars for each of cold build, RSS, no change (vs target), one changed
	if rects != 1+2*4 {
		t.Fatalf("%d rects, want 9:\n%s", rects, buf.String())
	}
	if !strings.Contains(buf.String(), "1.20× floor") || !strings.Contains(buf.String(), "#d8453b") {
		t.Fatalf("chart lacks the headline ratio or the missed-target colour:\n%s", buf.String())
	}
}

func TestReportJSONRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bench.json")
	if err := sampleReport().WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	row, ok := back.Find(RowColdBuild, "2x5")
	if !ok || row.Summary.Median != 1.2 || row.Ratio == nil {
		t.Fatalf("round trip lost the cold build row: %+v", row)
	}
}
