// Package events defines every message docweave's stages exchange: one Go
// type per message, the subject it travels on and its schema version. It is
// the contract between stages that may run in different processes, so it
// holds nothing else — no behaviour, no I/O.
//
// Messages carry references to artifacts (content hashes), never absolute
// paths, and every message has an ID that is deterministic for the work it
// describes, so JetStream de-duplication makes a re-publish harmless.
package events

import (
	"encoding/json"
	"fmt"
	"time"
)

// Prefix starts every subject docweave publishes its pipeline messages on.
const Prefix = "docweave."

// Subjects of the pipeline. They are documented in docs/events.md.
const (
	SubjectBuildRequested = Prefix + "build.requested"
	SubjectRepoClone      = Prefix + "repo.clone"
	SubjectRepoCloned     = Prefix + "repo.cloned"
	SubjectRepoPruned     = Prefix + "repo.pruned"
	SubjectContentReady   = Prefix + "build.content_ready"
	SubjectSiteRendered   = Prefix + "site.rendered"
	SubjectSitePublished  = Prefix + "site.published"
	SubjectBuildFinished  = Prefix + "build.finished"
	SubjectStageFailed    = Prefix + "stage.failed"
)

// AllSubjects is the wildcard that captures every pipeline subject.
const AllSubjects = Prefix + ">"

// Header is carried by every message.
type Header struct {
	// ID identifies the message; it is derived from the work, not random, so
	// that publishing the same result twice is de-duplicated by JetStream.
	ID string `json:"id"`
	// Type is the subject the message belongs on.
	Type string `json:"type"`
	// SchemaVersion is the version of this message type's payload layout.
	SchemaVersion int `json:"schema_version"`
	// BuildID ties every message to the build it serves.
	BuildID string `json:"build_id"`
	// Time is when the message was created.
	Time time.Time `json:"time"`
}

// Head gives access to the header of any message.
func (h *Header) Head() *Header { return h }

// Event is any pipeline message.
type Event interface {
	// Subject is the JetStream subject the message is published on.
	Subject() string
	// Head returns the message header.
	Head() *Header
}

// kind describes one message type for encoding and decoding.
type kind struct {
	version int
	make    func() Event
}

var kinds = map[string]kind{
	SubjectBuildRequested: {BuildRequestedVersion, func() Event { return &BuildRequested{} }},
	SubjectRepoClone:      {RepoCloneVersion, func() Event { return &RepoClone{} }},
	SubjectRepoCloned:     {RepoClonedVersion, func() Event { return &RepoCloned{} }},
	SubjectRepoPruned:     {RepoPrunedVersion, func() Event { return &RepoPruned{} }},
	SubjectContentReady:   {ContentReadyVersion, func() Event { return &ContentReady{} }},
	SubjectSiteRendered:   {SiteRenderedVersion, func() Event { return &SiteRendered{} }},
	SubjectSitePublished:  {SitePublishedVersion, func() Event { return &SitePublished{} }},
	SubjectBuildFinished:  {BuildFinishedVersion, func() Event { return &BuildFinished{} }},
	SubjectStageFailed:    {StageFailedVersion, func() Event { return &StageFailed{} }},
	SubjectLinksVerified:  {LinksVerifiedVersion, func() Event { return &LinksVerified{} }},
	SubjectLinksReported:  {LinksReportedVersion, func() Event { return &LinksReported{} }},
	SubjectUnitRender:     {UnitRenderVersion, func() Event { return &UnitRender{} }},
	SubjectUnitRendered:   {UnitRenderedVersion, func() Event { return &UnitRendered{} }},
	// Registered under its default subject; published on the configured
	// one (see BrokenLink.Subject).
	DefaultBrokenLinkSubject: {BrokenLinkVersion, func() Event { return &BrokenLink{} }},
}

// registryKeyed is implemented by messages whose subject is configurable:
// they are found in kinds under a fixed key instead of their subject.
type registryKeyed interface{ registryKey() string }

// kindOf finds the registered kind of a message.
func kindOf(ev Event) (kind, bool) {
	key := ev.Subject()
	if r, ok := ev.(registryKeyed); ok {
		key = r.registryKey()
	}
	k, ok := kinds[key]
	return k, ok
}

// Kind names a message's type: its subject, or for a message whose subject
// is configurable (BrokenLink) the subject its type is registered under.
// Stages declare what they publish by kind.
func Kind(ev Event) string {
	if r, ok := ev.(registryKeyed); ok {
		return r.registryKey()
	}
	return ev.Subject()
}

// Encode stamps the header (type, schema version, time when unset) and
// returns the JSON body. A message without an ID or build ID is refused,
// because de-duplication and tracing depend on both.
func Encode(ev Event) ([]byte, error) {
	k, ok := kindOf(ev)
	if !ok {
		return nil, fmt.Errorf("encode: unknown subject %q", ev.Subject())
	}
	h := ev.Head()
	if h.ID == "" || h.BuildID == "" {
		return nil, fmt.Errorf("encode %s: id and build_id are required", ev.Subject())
	}
	h.Type = ev.Subject()
	h.SchemaVersion = k.version
	if h.Time.IsZero() {
		h.Time = time.Now().UTC()
	}
	return json.Marshal(ev)
}

// Decode parses a message received on subject. It rejects unknown subjects
// and schema versions newer than this binary understands, so a mixed-version
// deployment fails loudly instead of misreading a payload.
func Decode(subject string, data []byte) (Event, error) {
	k, ok := kinds[subject]
	if !ok {
		return nil, fmt.Errorf("decode: unknown subject %q", subject)
	}
	ev := k.make()
	if err := json.Unmarshal(data, ev); err != nil {
		return nil, fmt.Errorf("decode %s: %w", subject, err)
	}
	h := ev.Head()
	if h.SchemaVersion > k.version {
		return nil, fmt.Errorf("decode %s: schema version %d is newer than supported %d", subject, h.SchemaVersion, k.version)
	}
	if h.ID == "" || h.BuildID == "" {
		return nil, fmt.Errorf("decode %s: id and build_id are required", subject)
	}
	return ev, nil
}

// Subjects lists every subject with a message type, for provisioning and docs.
func Subjects() []string {
	out := make([]string, 0, len(kinds))
	for s := range kinds {
		out = append(out, s)
	}
	return out
}
