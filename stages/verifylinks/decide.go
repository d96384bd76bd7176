package verifylinks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
)

// requestNoteTTL is how long the note of a direct build's request stays in
// the cache bucket: far longer than any build takes.
const requestNoteTTL = 24 * time.Hour

// requestNote records, for a direct build, whether it asked for link
// verification. site.rendered does not carry the request's flags, and the
// stage that sees the site may run in another process than the one that
// saw the request, so the note lives in the cache bucket.
type requestNote struct {
	Direct      bool `json:"direct"`
	VerifyLinks bool `json:"verify_links"`
}

// requestKey is the bucket key of a build's note; build IDs are hashed so
// any ID makes a valid key.
func requestKey(buildID string) string {
	sum := sha256.Sum256([]byte(buildID))
	return "request." + hex.EncodeToString(sum[:16])
}

// noteRequest remembers a direct build's choice. Daemon builds need no
// note: they follow daemon.link_verification.enabled.
func (s *stage) noteRequest(ctx context.Context, in *events.BuildRequested) error {
	if !in.Direct {
		return nil
	}
	return s.linkCache().Put(ctx, requestKey(in.BuildID), requestNote{Direct: true, VerifyLinks: in.VerifyLinks}, requestNoteTTL)
}

// shouldVerify decides whether a build's site is verified, and says why:
//   - a direct build: only when it asked (--verify-links), whatever
//     enabled says, because the person at the command line asked;
//   - a daemon build: when daemon.link_verification.enabled is true.
//
// A build without a note is a daemon build — unless this process runs a
// direct build, whose request it saw (or lost: then it does not verify).
func (s *stage) shouldVerify(ctx context.Context, buildID string) (bool, string) {
	var note requestNote
	ok, err := s.linkCache().Get(ctx, requestKey(buildID), &note)
	if err != nil {
		s.log.Warn().Err(err).Str("build_id", buildID).Msg("request note unreadable; deciding by mode")
	}
	switch {
	case ok && note.VerifyLinks:
		return true, "direct build with --verify-links"
	case ok:
		return false, "direct build without --verify-links"
	case s.cfg.Mode != config.ModeDaemon:
		return false, "direct build without --verify-links"
	case !s.cfg.Daemon.LinkVerification.Enabled:
		return false, "daemon.link_verification.enabled is false"
	default:
		return true, "daemon build"
	}
}
