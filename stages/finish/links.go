package finish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/docweave/docweave/report"
)

// ErrSuperseded says the report on disk belongs to a newer build.
var ErrSuperseded = errors.New("the build report already belongs to a newer build")

// reportPoll is how often the report is looked for while waiting.
const reportPoll = 100 * time.Millisecond

// addLinks adds the link figures to <outputDir>/build-report.json.
// The report is written from the same site.rendered message that link
// verification starts from, usually long before verification ends, but not
// necessarily: so this waits (up to wait) for the report of this build to
// appear, and then rewrites it atomically with the links section added —
// unless it already holds these figures. A report of a newer build is left
// alone (ErrSuperseded). Build IDs sort by time (see events.NewBuildID).
//
// This stage, the report's one writer, calls it on links.verified.
func addLinks(ctx context.Context, outputDir, buildID string, links report.LinkVerification, wait time.Duration) error {
	path := filepath.Join(outputDir, ReportFile)
	deadline := time.Now().Add(wait)
	for {
		rep, err := ReadReport(path)
		switch {
		case err == nil && rep.BuildID == buildID && rep.Links != nil && reflect.DeepEqual(*rep.Links, links):
			return nil
		case err == nil && rep.BuildID == buildID:
			rep.Links = &links
			return WriteReport(outputDir, rep)
		case err == nil && rep.BuildID > buildID:
			return fmt.Errorf("report %s: %w (%s)", path, ErrSuperseded, rep.BuildID)
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("report %s: the report of build %s did not appear within %s", path, buildID, wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(reportPoll):
		}
	}
}

// ReadReport reads a build report file.
func ReadReport(path string) (*report.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("report %s: %w", path, err)
	}
	return &rep, nil
}
