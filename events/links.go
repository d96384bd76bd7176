package events

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/docweave/docweave/report"
)

// SubjectLinksVerified carries the figures of a finished link verification.
const SubjectLinksVerified = Prefix + "links.verified"

// DefaultBrokenLinkSubject is daemon.link_verification.subject when the
// configuration does not set it. Broken-link events live outside the
// docweave.> pipeline subjects: they are a public interface for other
// services, kept in a stream of their own (docs/links.md).
const DefaultBrokenLinkSubject = "builder.links.broken"

// Schema versions of the link verification messages.
const (
	BrokenLinkVersion    = 1
	LinksVerifiedVersion = 1
)

// BrokenLink reports one broken link on one page in one build. Its subject
// is configurable, so unlike the pipeline messages it is registered under
// DefaultBrokenLinkSubject and published on PublishOn; a subscriber of any
// subject decodes it with DecodeBrokenLink. The JSON Schema of the payload
// is docs/schemas/broken-link.v1.schema.json.
type BrokenLink struct {
	Header
	// PublishOn is the configured subject. It is not part of the payload,
	// which records the subject in the header's type field.
	PublishOn string `json:"-"`
	// URL is the link target as checked: an absolute URL for an external
	// link (with its #fragment when check_fragments checked it), the site
	// path (with any #fragment) for an internal one.
	URL      string `json:"url"`
	Internal bool   `json:"internal"`
	// StatusCode is the HTTP status of the final answer, 0 when there was
	// none (DNS failure, redirect loop, missing file or fragment).
	StatusCode int `json:"status_code"`
	// Reason is a stable code: not_found, gone, client_error, dns,
	// redirect_loop, too_many_redirects, tls, invalid_url, missing_file,
	// missing_fragment.
	Reason string `json:"reason"`
	// Error says what went wrong in words.
	Error string `json:"error"`
	// Element is where the link sits in the HTML, such as a[href].
	Element string `json:"element"`
	// SourcePage is the URL of the page holding the link (absolute when
	// generator.base_url is set, else the site path).
	SourcePage string `json:"source_page"`
	// SourceFile is the Markdown file the page was rendered from, relative
	// to the repository; empty for pages of no repository.
	SourceFile string `json:"source_file"`
	Repository string `json:"repository"`
	// Version is the branch or tag of the page, with versioning; absent
	// otherwise.
	Version string `json:"version,omitempty"`
	Forge   string `json:"forge"`
	// SourceLine is the line of the link in SourceFile, and BrokenBy the
	// repository whose change in this build removed the page or id the
	// link names (LINK_TARGET_REMOVED in the build report); both absent
	// when the build did not break a link that worked before.
	SourceLine int    `json:"source_line,omitempty"`
	BrokenBy   string `json:"broken_by,omitempty"`
	// FirstSeen and LastSeen bound the run of consecutive verifications in
	// which the target was broken; FailureCount counts them.
	FirstSeen    time.Time `json:"first_seen"`
	LastSeen     time.Time `json:"last_seen"`
	FailureCount int       `json:"failure_count"`
	// Site is the artifact reference of the verified site.
	Site string `json:"site"`
}

// Subject implements Event: the configured subject, else the one the
// message was received with, else the default.
func (b *BrokenLink) Subject() string {
	switch {
	case b.PublishOn != "":
		return b.PublishOn
	case b.Type != "":
		return b.Type
	default:
		return DefaultBrokenLinkSubject
	}
}

// registryKey is the key BrokenLink is registered under in kinds, whatever
// subject it is published on.
func (*BrokenLink) registryKey() string { return DefaultBrokenLinkSubject }

// DecodeBrokenLink parses a broken-link event received on any subject,
// with the same checks as Decode.
func DecodeBrokenLink(data []byte) (*BrokenLink, error) {
	ev := &BrokenLink{}
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, fmt.Errorf("decode broken-link event: %w", err)
	}
	if ev.SchemaVersion > BrokenLinkVersion {
		return nil, fmt.Errorf("decode broken-link event: schema version %d is newer than supported %d", ev.SchemaVersion, BrokenLinkVersion)
	}
	if ev.ID == "" || ev.BuildID == "" {
		return nil, fmt.Errorf("decode broken-link event: id and build_id are required")
	}
	return ev, nil
}

// LinksVerified announces that a build's links were verified, with the
// figures the build report's links section holds. The daemon turns it into
// metrics and status; a direct build run with --verify-links waits for it.
type LinksVerified struct {
	Header
	// Site is the artifact reference of the verified site.
	Site string `json:"site"`
	report.LinkVerification
}

// Subject implements Event.
func (*LinksVerified) Subject() string { return SubjectLinksVerified }
