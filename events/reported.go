package events

// SubjectLinksReported follows links.verified: the fingerprint stage, the
// one writer of build-report.json, has added a build's link figures to it
// (or could not, and says why). A direct build run with --verify-links
// waits for it, so the report on disk is whole when the command returns.
const SubjectLinksReported = Prefix + "links.reported"

// LinksReportedVersion is the schema version of links.reported.
const LinksReportedVersion = 1

// LinksReported says whether a build's link figures reached its report.
type LinksReported struct {
	Header
	// Attached is true when build-report.json holds the figures.
	Attached bool `json:"attached"`
	// Error says why they are not there: the report belongs to a newer
	// build, or this build's report never appeared.
	Error string `json:"error,omitempty"`
}

// Subject implements Event.
func (*LinksReported) Subject() string { return SubjectLinksReported }
