package preview

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"time"
)

// States of a preview.
const (
	StateBuilding = "building"
	StateReady    = "ready"
	StateFailed   = "failed"
)

// Request asks for the preview of one repository at one ref.
type Request struct {
	// Repository is the configured repository's name; Ref the branch or
	// tag to show it at.
	Repository string `json:"repository"`
	Ref        string `json:"ref"`
	// CloneURL, when set and not the repository's own URL, is where the
	// ref is: a pull request's fork. It is cloned without the
	// repository's credentials.
	CloneURL string `json:"clone_url,omitempty"`
	// Untrusted renders the repository as trusted: false (a fork's
	// content).
	Untrusted bool `json:"untrusted,omitempty"`
	// Commit, when set, is the commit the ref must be at (a pull
	// request's head); the build fails when it moved on.
	Commit string `json:"commit,omitempty"`
	// Key identifies the preview: a request with the key of an existing
	// preview rebuilds it. "" means the repository and ref.
	Key string `json:"key,omitempty"`
	// Title describes the preview, such as "GitHub pull request #12".
	Title string `json:"title,omitempty"`
	// Report, when set, is where the preview's outcome is reported (a
	// commit status on the request's head).
	Report *ReportTarget `json:"report,omitempty"`
}

// ReportTarget is a forge commit to set a status on.
type ReportTarget struct {
	// Forge is github, gitlab or forgejo (Gitea too).
	Forge string `json:"forge"`
	// API is the forge's API base URL: https://api.github.com,
	// https://gitlab.example.com/api/v4, https://gitea.example.com/api/v1.
	API string `json:"api"`
	// Project is owner/name (GitHub, Forgejo) or the project's numeric
	// id (GitLab).
	Project string `json:"project"`
	// Commit is the commit the status is set on.
	Commit string `json:"commit"`
}

// key is the request's identity (see Request.Key).
func (r Request) key() string {
	if r.Key != "" {
		return r.Key
	}
	return r.Repository + "@" + r.Ref
}

// idOf is the preview's id for a key: the repository's name made safe for
// a URL path segment, and a digest of the key.
func idOf(repository, key string) string {
	sum := sha256.Sum256([]byte(key))
	slug := strings.Trim(unsafeID.ReplaceAllString(strings.ToLower(repository), "-"), "-")
	if len(slug) > 40 {
		slug = strings.TrimRight(slug[:40], "-")
	}
	if slug == "" {
		slug = "preview"
	}
	return slug + "-" + hex.EncodeToString(sum[:5])
}

var unsafeID = regexp.MustCompile(`[^a-z0-9]+`)

// validID matches the ids idOf makes: nothing else names a directory
// this package removes.
var validID = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,40})-[0-9a-f]{10}$`)

// ValidID reports whether id can be a preview's id.
func ValidID(id string) bool { return validID.MatchString(id) }

// Status is what is known of one preview: the body of GET
// /api/previews/{id}.
type Status struct {
	ID         string `json:"id"`
	Repository string `json:"repository"`
	Ref        string `json:"ref"`
	Title      string `json:"title,omitempty"`
	Untrusted  bool   `json:"untrusted,omitempty"`
	// State is building, ready or failed. A preview being rebuilt is
	// building, and serves its last good site meanwhile.
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	// Commit is the commit the preview shows (the one being built while
	// building).
	Commit string `json:"commit,omitempty"`
	// URL is where the preview is served (the docs server's
	// /previews/<id>/, after daemon.previews.public_url).
	URL         string    `json:"url"`
	RequestedAt time.Time `json:"requested_at"`
	// BuiltAt is when the site served was built; ExpiresAt when the
	// preview is removed (ttl after it was last asked for).
	BuiltAt   *time.Time `json:"built_at,omitempty"`
	ExpiresAt time.Time  `json:"expires_at"`
	// Unit is the unit rendered anew; Pages its pages.
	Unit  string `json:"unit,omitempty"`
	Pages int    `json:"pages"`
	// Changes and LinksBroken compare the preview with the live site it
	// was built against.
	Changes     *Changes     `json:"changes,omitempty"`
	LinksBroken []BrokenLink `json:"links_broken"`
	// TimingsMS are the build's steps in milliseconds.
	TimingsMS map[string]int64 `json:"timings_ms,omitempty"`
}

// Summary is the preview's outcome in one line (a commit status's
// description).
func (s Status) Summary() string {
	switch s.State {
	case StateBuilding:
		return "docweave preview is building"
	case StateFailed:
		msg := "docweave preview failed: " + s.Error
		if len(msg) > 130 {
			msg = msg[:127] + "..."
		}
		return msg
	}
	c := Changes{}
	if s.Changes != nil {
		c = *s.Changes
	}
	return plural(len(c.Added), "page") + " added, " + itoa(len(c.Changed)) + " changed, " + itoa(len(c.Removed)) + " removed; " +
		plural(len(s.LinksBroken), "link") + " broken"
}

// ErrUnknownRepository is returned for a request naming a repository the
// configuration does not have.
var ErrUnknownRepository = errors.New("unknown repository")
