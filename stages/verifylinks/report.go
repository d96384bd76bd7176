package verifylinks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/stages/fingerprint"
)

// errSuperseded says the report on disk belongs to a newer build.
var errSuperseded = errors.New("the build report already belongs to a newer build")

// reportPoll is how often the report is looked for while waiting.
const reportPoll = 100 * time.Millisecond

// attachToReport adds the link figures to <outputDir>/build-report.json.
// The fingerprint stage writes that report from the same site.rendered
// message, usually long before verification ends, but not necessarily: so
// this waits (up to wait) for the report of this build to appear, and then
// rewrites it atomically with the links section added. A report of a newer
// build is left alone. Build IDs sort by time (see direct.NewBuildID).
func attachToReport(ctx context.Context, outputDir, buildID string, links report.LinkVerification, wait time.Duration) error {
	path := filepath.Join(outputDir, fingerprint.ReportFile)
	deadline := time.Now().Add(wait)
	for {
		rep, err := readReport(path)
		switch {
		case err == nil && rep.BuildID == buildID:
			rep.Links = &links
			return fingerprint.WriteReport(outputDir, rep)
		case err == nil && rep.BuildID > buildID:
			return fmt.Errorf("report %s: %w (%s)", path, errSuperseded, rep.BuildID)
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

func readReport(path string) (*report.Build, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep report.Build
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("report %s: %w", path, err)
	}
	return &rep, nil
}
