package webhook

import (
	"net/http"
	"time"
	"unicode"

	"github.com/rs/zerolog"
)

// maxLoggedIDLength bounds the sender-chosen delivery ID in logs.
const maxLoggedIDLength = 128

// logReply writes the one log line of a request. Its fields are stable
// (server, method, path, status, duration_ms, outcome, source, event,
// delivery, reason, repositories, build_id, coalesced) so operators can
// query and alert on them. Headers and bodies are never logged, so neither
// secrets nor signatures can leak here.
func (s *server) logReply(r *http.Request, rep reply, elapsed time.Duration) {
	var ev *zerolog.Event
	switch {
	case rep.status >= 500:
		ev = s.log.Error()
	case rep.outcome == outcomeRefused && rep.status != http.StatusNotFound:
		ev = s.refusals.Warn()
	case rep.outcome == outcomeHealth || rep.status == http.StatusNotFound:
		ev = s.log.Debug()
	default:
		ev = s.log.Info()
	}
	ev = ev.Str("method", r.Method).
		Str("path", r.URL.Path).
		Int("status", rep.status).
		Float64("duration_ms", float64(elapsed.Microseconds())/1000).
		Str("outcome", rep.outcome).
		Str("remote", r.RemoteAddr)
	if rep.source != "" {
		ev = ev.Str("source", rep.source)
	}
	if rep.event != "" {
		ev = ev.Str("event", sanitizeForLog(rep.event))
	}
	if rep.delivery != "" {
		ev = ev.Str("delivery", sanitizeForLog(rep.delivery))
	}
	if rep.code != "" {
		ev = ev.Str("code", string(rep.code))
	}
	if rep.reason != "" {
		ev = ev.Str("reason", rep.reason)
	}
	if rep.trigger != nil {
		ev = ev.Strs("repositories", rep.trigger.Repositories).
			Str("build_id", rep.result.BuildID).
			Bool("coalesced", rep.result.Coalesced)
		if rep.trigger.Branch != "" {
			ev = ev.Str("branch", rep.trigger.Branch)
		}
		if rep.trigger.Tag != "" {
			ev = ev.Str("tag", rep.trigger.Tag)
		}
		if rep.trigger.Commit != "" {
			ev = ev.Str("commit", rep.trigger.Commit)
		}
	}
	if rep.err != nil {
		ev = ev.Err(rep.err)
	}
	ev.Msg("webhook request")
}

// sanitizeForLog keeps a sender-chosen header value short and printable;
// the JSON encoder already escapes it, this only bounds its size and noise.
func sanitizeForLog(s string) string {
	out := make([]rune, 0, min(len(s), maxLoggedIDLength))
	for _, c := range s {
		if len(out) == maxLoggedIDLength {
			break
		}
		if unicode.IsPrint(c) {
			out = append(out, c)
		} else {
			out = append(out, '?')
		}
	}
	return string(out)
}
