package finish

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/report"
)

func TestDocFilesHashCoversTreesAndPathsOnly(t *testing.T) {
	a := events.RepoOutcome{Repository: "a", ContentPath: "a", Tree: "sha256:1"}
	b := events.RepoOutcome{Repository: "b", ContentPath: "b", Tree: "sha256:2"}
	failed := events.RepoOutcome{Repository: "c", ContentPath: "c", Failed: true}
	base := DocFilesHash([]events.RepoOutcome{a, b})
	if got := DocFilesHash([]events.RepoOutcome{b, a, failed}); got != base {
		t.Fatal("order or a failed repository changed the hash")
	}
	edited := b
	edited.Tree = "sha256:3"
	if DocFilesHash([]events.RepoOutcome{a, edited}) == base {
		t.Fatal("changed content kept the hash")
	}
	moved := b
	moved.ContentPath = "github/b"
	if DocFilesHash([]events.RepoOutcome{a, moved}) == base {
		t.Fatal("changed path kept the hash")
	}
	if DocFilesHash([]events.RepoOutcome{a}) == base {
		t.Fatal("a missing repository kept the hash")
	}
}

func TestWriteReportIsReadableJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	rep := &report.Report{BuildID: "b1", RenderedPages: 3, Issues: []report.Issue{{Code: report.CodeCloneAuth}}}
	if err := WriteReport(dir, rep); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var back report.Report
	if err := json.Unmarshal(data, &back); err != nil || back.RenderedPages != 3 || back.Issues[0].Code != report.CodeCloneAuth {
		t.Fatalf("report %+v (%v)", back, err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".build-report-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}
