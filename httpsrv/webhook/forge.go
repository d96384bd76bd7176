package webhook

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// eventKind is what an event means to docweave.
type eventKind int

const (
	kindOther eventKind = iota // acknowledged and ignored
	kindPing                   // answered with pong
	kindPush                   // may trigger a build
)

// forge is one forge's dialect: how it authenticates, names its events and
// shapes its push payload. The request flow around it is the same for all.
type forge struct {
	source string
	// eventHeaders are the headers naming the event, first present wins.
	eventHeaders []string
	// deliveryHeaders are the headers carrying a delivery ID.
	deliveryHeaders []string
	// authenticate verifies the request; a non-nil reply is the refusal.
	authenticate func(h http.Header, body []byte) *reply
	// classify maps an event name (and, for some, the payload) to a kind.
	classify func(event string, payload []byte) eventKind
	// parsePush reads a push payload.
	parsePush func(payload []byte) (pushEvent, error)
	// parsePullRequest reads a pull (merge) request payload.
	parsePullRequest func(payload []byte) (pullRequestEvent, error)
}

// firstHeader returns the first non-empty header among names.
func firstHeader(h http.Header, names []string) (name, value string) {
	for _, n := range names {
		if v := h.Get(n); v != "" {
			return n, v
		}
	}
	return "", ""
}

// forgeEndpoint is the request flow shared by the forge endpoints:
// bounded read, authentication, event, payload, decision, trigger. Nothing
// of the body is interpreted before authentication succeeds.
func (s *server) forgeEndpoint(f forge) endpointFunc {
	return func(r *http.Request) reply {
		_, delivery := firstHeader(r.Header, f.deliveryHeaders)
		rep := s.forgeRequest(f, r, delivery)
		rep.source, rep.delivery = f.source, delivery
		return rep
	}
}

func (s *server) forgeRequest(f forge, r *http.Request, delivery string) reply {
	body, rep, ok := readBody(r, s.maxBody)
	if !ok {
		return rep
	}
	if refusal := f.authenticate(r.Header, body); refusal != nil {
		return *refusal
	}
	_, event := firstHeader(r.Header, f.eventHeaders)
	if event == "" {
		return errorReply(http.StatusBadRequest, CodeMissingEvent,
			fmt.Sprintf("no event header; %s webhooks send %s", f.source, f.eventHeaders[0]))
	}
	payload, err := jsonPayload(r, body)
	if err != nil {
		return withEvent(errorReply(http.StatusBadRequest, CodeInvalidPayload, err.Error()), event)
	}
	if !json.Valid(payload) {
		return withEvent(errorReply(http.StatusBadRequest, CodeInvalidPayload,
			fmt.Sprintf("%s %q payload is not valid JSON", f.source, event)), event)
	}
	switch f.classify(event, payload) {
	case kindPing:
		return withEvent(pong(), event)
	case kindOther:
		return withEvent(ignored(fmt.Sprintf("%s event %q does not trigger builds; only pushes do", f.source, event)), event)
	case kindPullRequest:
		return withEvent(s.pullRequest(f, r, payload, event, delivery), event)
	}
	push, err := f.parsePush(payload)
	if err != nil {
		return withEvent(errorReply(http.StatusBadRequest, CodeInvalidPayload,
			fmt.Sprintf("%s %q payload: %v", f.source, event, err)), event)
	}
	decision := decidePush(s.matcher(), push, s.versioned)
	if len(decision.repos) == 0 {
		return withEvent(ignored(decision.reason), event)
	}
	t := Trigger{
		Source:       f.source,
		Event:        "push",
		DeliveryID:   delivery,
		Repositories: decision.repos,
		Branch:       decision.branch,
		Tag:          decision.tag,
		Commit:       push.commit,
		Reason:       pushReason(f.source, push.repository, decision),
	}
	return withEvent(s.fire(r, t), event)
}

// pushReason describes a triggering push for the build report.
func pushReason(source, repository string, d pushDecision) string {
	what := "branch " + d.branch
	if d.tag != "" {
		what = "tag " + d.tag
	}
	if repository == "" {
		return fmt.Sprintf("%s push to %s", source, what)
	}
	return fmt.Sprintf("%s push to %s of %s", source, what, repository)
}

// fire calls the build trigger and turns its answer into a reply.
func (s *server) fire(r *http.Request, t Trigger) reply {
	res, err := s.trigger(r.Context(), t)
	if err != nil {
		rep := errorReply(http.StatusServiceUnavailable, CodeTriggerFailed,
			"the build could not be queued; retry the delivery later (the daemon log has the cause)")
		rep.err = fmt.Errorf("trigger build for %v: %w", t.Repositories, err)
		rep.trigger = &t
		return rep
	}
	return accepted(t, res)
}

// withEvent records the event name on a reply for the log.
func withEvent(rep reply, event string) reply {
	rep.event = event
	return rep
}
