package verifylinks

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/linkcheck"
)

// brokenLinkEvents makes one event per broken link per page. The ID is
// derived from the build, the page and the target, so a redelivered
// verification publishes the same IDs and JetStream drops the copies.
func brokenLinkEvents(in *events.SiteRendered, res *linkcheck.Result, subject string) []events.Event {
	out := make([]events.Event, 0, len(res.Broken)+1)
	for _, o := range res.Broken {
		t := o.Target
		ev := &events.BrokenLink{
			Header:     events.Header{ID: brokenLinkID(in.BuildID, o.Page.File, t.Target.Key()), BuildID: in.BuildID},
			PublishOn:  subject,
			URL:        t.Target.URL,
			Internal:   t.Target.Kind == linkcheck.KindInternal,
			StatusCode: t.Verdict.Code,
			Reason:     t.Verdict.Reason,
			Error:      t.Verdict.Error,
			Element:    o.Element,
			SourcePage: o.Page.URL,
			SourceFile: o.Page.SourceFile,
			Repository: o.Page.Repository,
			Version:    o.Page.Version,
			Forge:      o.Page.Forge,
			Site:       in.Site,
		}
		if h := t.History; h != nil {
			ev.FirstSeen, ev.LastSeen, ev.FailureCount = h.FirstSeen, h.LastSeen, h.Failures
		}
		out = append(out, ev)
	}
	return out
}

// brokenLinkID is "links.broken:<build>:<hash of page and target>".
func brokenLinkID(buildID, page, targetKey string) string {
	sum := sha256.Sum256([]byte(page + "\x00" + targetKey))
	return "links.broken:" + buildID + ":" + hex.EncodeToString(sum[:12])
}
