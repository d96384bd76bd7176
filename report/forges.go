package report

import "time"

// CodeForgeListFailed is the issue of a forge that could not be listed:
// its repositories are those of its last successful scan.
const CodeForgeListFailed = "FORGE_LIST_FAILED"

// Forge statuses.
const (
	ForgeOK     = "ok"
	ForgeFailed = "failed"
)

// Forge is how the latest scan of one configured forge went (forges[] in
// the configuration): the repositories it contributed and, when it could
// not be listed, why — its repositories are then those of the last scan
// that succeeded.
type Forge struct {
	Name         string    `json:"name"`
	Type         string    `json:"type"`
	Status       string    `json:"status"` // ok | failed
	Repositories int       `json:"repositories"`
	Listed       int       `json:"listed"`
	Requests     int       `json:"requests"`
	ScannedAt    time.Time `json:"scanned_at,omitzero"`
	ListedAt     time.Time `json:"listed_at,omitzero"`
	Error        string    `json:"error,omitempty"`
	// Warnings are problems of single repositories (a documentation path
	// that could not be checked, a webhook not registered).
	Warnings []string `json:"warnings,omitempty"`
}

// FailedForges counts the forges whose latest scan failed.
func (b *Report) FailedForges() int {
	n := 0
	for _, f := range b.Forges {
		if f.Status == ForgeFailed {
			n++
		}
	}
	return n
}
