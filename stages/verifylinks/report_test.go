package verifylinks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/report"
)

// TestReportAppearingLaterGetsTheLinks: verification may end before the
// fingerprint stage wrote the report; the figures are added once it is there.
func TestReportAppearingLaterGetsTheLinks(t *testing.T) {
	dir := t.TempDir()
	h := &harness{t: t, cfg: &config.Config{Output: config.Output{Directory: dir}}}
	h.writeReport("b0") // an older build's report is there first
	go func() {
		time.Sleep(3 * reportPoll)
		h.writeReport("b1")
	}()
	if err := attachToReport(context.Background(), dir, "b1", report.LinkVerification{Checked: 5, Broken: 1}, 30*time.Second); err != nil {
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
	h := &harness{t: t, cfg: &config.Config{Output: config.Output{Directory: dir}}}
	h.writeReport("b2")
	err := attachToReport(context.Background(), dir, "b1", report.LinkVerification{Checked: 1}, 0)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("want superseded, got %v", err)
	}
	if rep := readReportFile(t, dir); rep.Links != nil || rep.BuildID != "b2" {
		t.Fatalf("newer report changed: %+v", rep)
	}
	if err := attachToReport(context.Background(), t.TempDir(), "b1", report.LinkVerification{}, 0); err == nil {
		t.Fatal("a missing report was not reported")
	}
	if _, err := os.Stat(filepath.Join(dir, "build-report.json")); err != nil {
		t.Fatal(err)
	}
}
