package events

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewBuildID returns a sortable, unique build ID that is safe as a KV key
// and as a file name. Every event of a build carries it (Header.BuildID),
// which is why it is made here, where every part of docweave can reach it.
func NewBuildID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	// Microseconds, so two builds started in the same second still sort in
	// the order they were started (link verification relies on it).
	return time.Now().UTC().Format("20060102t150405.000000") + "-" + hex.EncodeToString(b[:])
}
