package finish

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/report"
)

// TestReportAppearingLaterGetsTheLinks: verification may end before the
// finish stage wrote the report; the figures are added once it is there.
func TestReportAppearingLaterGetsTheLinks(t *testing.T) {
	dir := t.TempDir()
	writeTestReport(t, dir, "b0") // an older build's report is there first
	go func() {
		time.Sleep(3 * reportPoll)
		writeTestReport(t, dir, "b1")
	}()
	if err := addLinks(context.Background(), dir, "b1", report.LinkVerification{Checked: 5, Broken: 1}, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	rep := readReportFile(t, dir)
	if rep.BuildID != "b1" || rep.Links == nil || rep.Links.Checked != 5 || rep.Outcome != report.OutcomeSuccess {
		t.Fatalf("report: %+v links %+v", rep, rep.Links)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".build-report-") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestReportOfNewerBuildIsLeftAlone(t *testing.T) {
	dir := t.TempDir()
	writeTestReport(t, dir, "b2")
	err := addLinks(context.Background(), dir, "b1", report.LinkVerification{Checked: 1}, 0)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("want superseded, got %v", err)
	}
	if rep := readReportFile(t, dir); rep.Links != nil || rep.BuildID != "b2" {
		t.Fatalf("newer report changed: %+v", rep)
	}
	if err := addLinks(context.Background(), t.TempDir(), "b1", report.LinkVerification{}, 0); err == nil {
		t.Fatal("a missing report was not reported")
	}
	if _, err := os.Stat(filepath.Join(dir, "build-report.json")); err != nil {
		t.Fatal(err)
	}
}

// Attaching the same figures again (links.verified delivered twice)
// leaves the file as it is.
func TestAttachingTheSameFiguresAgainChangesNothing(t *testing.T) {
	dir := t.TempDir()
	writeTestReport(t, dir, "b1")
	figures := report.LinkVerification{Checked: 3, Broken: 1}
	if err := addLinks(context.Background(), dir, "b1", figures, 0); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if err := addLinks(context.Background(), dir, "b1", figures, 0); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(filepath.Join(dir, ReportFile))
	if !after.ModTime().Equal(before.ModTime()) || os.SameFile(before, after) == false {
		t.Fatal("the report was rewritten for figures it already had")
	}
}

func writeTestReport(t *testing.T, dir, buildID string) {
	t.Helper()
	rep := report.Report{SchemaVersion: report.SchemaVersion, BuildID: buildID, Outcome: report.OutcomeSuccess, StaticRendered: true}
	if err := WriteReport(dir, &rep); err != nil {
		t.Error(err)
	}
}

func readReportFile(t *testing.T, dir string) *report.Report {
	t.Helper()
	rep, err := ReadReport(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// On links.verified the stage adds the figures to its report and says so
// on links.reported; a report of a newer build is left alone, and the
// event says why the figures are not there.
func TestLinksVerifiedIsAnsweredWithLinksReported(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Output.Directory = dir
	st, err := New(pipeline.Deps{Config: &cfg, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	writeTestReport(t, dir, "b1")
	verified := func(id string) *events.LinksVerified {
		return &events.LinksVerified{Header: events.Header{ID: "links.verified:" + id, BuildID: id}, LinkVerification: report.LinkVerification{Checked: 4}}
	}
	out, err := st.Handle(context.Background(), verified("b1"))
	if err != nil || len(out) != 1 {
		t.Fatalf("handle: %v, %v", out, err)
	}
	if r, ok := out[0].(*events.LinksReported); !ok || !r.Attached || r.BuildID != "b1" || r.ID != "links.reported:b1" {
		t.Fatalf("out = %+v, want links.reported attached for b1", out[0])
	}
	if rep := readReportFile(t, dir); rep.Links == nil || rep.Links.Checked != 4 {
		t.Fatalf("report links: %+v", rep.Links)
	}
	writeTestReport(t, dir, "b3")
	out, err = st.Handle(context.Background(), verified("b2"))
	if err != nil || len(out) != 1 {
		t.Fatalf("handle: %v, %v", out, err)
	}
	if r := out[0].(*events.LinksReported); r.Attached || !strings.Contains(r.Error, "newer build") {
		t.Fatalf("superseded: %+v", r)
	}
}
