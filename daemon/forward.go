package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/docweave/docweave/pipeline/natsbroker"
)

// buildRequests is what the admin and webhook servers ask of the build
// coordinator: the coordinator itself in the process that leads the
// control plane, or a forwarder to it in the others.
type buildRequests interface {
	Trigger(ctx context.Context, reason string, repositories []string) (id string, coalesced bool, err error)
	Build(id string) (BuildRecord, bool)
	Recent() []BuildRecord
}

// Subjects of the control plane's requests. They are outside the pipeline
// stream's docweave.> on purpose: JetStream would store them and answer
// the requests with its own acknowledgements.
const (
	subjectForwardTrigger = "docweavectl.trigger"
	subjectForwardBuild   = "docweavectl.build"
	subjectForwardRecent  = "docweavectl.recent"
)

// forwardTimeout bounds one request to the leading process.
const forwardTimeout = 5 * time.Second

// ErrNoLeader says no process leads the control plane at the moment (the
// leader stopped and its lease has not run out yet): the request may be
// made again in a few seconds.
var ErrNoLeader = errors.New("no control-plane process leads at the moment; try again in a few seconds")

type triggerRequest struct {
	Reason       string   `json:"reason"`
	Repositories []string `json:"repositories,omitempty"`
}

type triggerReply struct {
	BuildID   string `json:"build_id"`
	Coalesced bool   `json:"coalesced"`
	Error     string `json:"error,omitempty"`
	Closed    bool   `json:"closed,omitempty"`
}

type buildReply struct {
	Found bool        `json:"found"`
	Build BuildRecord `json:"build"`
}

// answerForwarded answers the other control-plane processes' requests with the
// leader's coordinator.
func answerForwarded(b *natsbroker.Broker, coord *Coordinator) ([]*nats.Subscription, error) {
	var subs []*nats.Subscription
	handlers := map[string]nats.MsgHandler{
		subjectForwardTrigger: func(m *nats.Msg) {
			var req triggerRequest
			var rep triggerReply
			if err := json.Unmarshal(m.Data, &req); err != nil {
				rep.Error = fmt.Sprintf("undecodable trigger request: %v", err)
			} else {
				id, coalesced, err := coord.Trigger(context.Background(), req.Reason, req.Repositories)
				rep.BuildID, rep.Coalesced = id, coalesced
				if err != nil {
					rep.Error, rep.Closed = err.Error(), errors.Is(err, ErrClosed)
				}
			}
			respondJSON(m, rep)
		},
		subjectForwardBuild: func(m *nats.Msg) {
			b, ok := coord.Build(string(m.Data))
			respondJSON(m, buildReply{Found: ok, Build: b})
		},
		subjectForwardRecent: func(m *nats.Msg) { respondJSON(m, coord.Recent()) },
	}
	for subject, h := range handlers {
		s, err := b.Subscribe(subject, h)
		if err != nil {
			unsubscribeAll(subs)
			return nil, fmt.Errorf("answer %s: %w", subject, err)
		}
		subs = append(subs, s)
	}
	return subs, b.Flush()
}

func respondJSON(m *nats.Msg, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	_ = m.Respond(data)
}

func unsubscribeAll(subs []*nats.Subscription) {
	for _, s := range subs {
		_ = s.Unsubscribe()
	}
}

// leaderForwarder forwards to the leading process.
type leaderForwarder struct{ broker *natsbroker.Broker }

func (r leaderForwarder) request(ctx context.Context, subject string, data []byte, out any) error {
	ctx, cancel := context.WithTimeout(ctx, forwardTimeout)
	defer cancel()
	msg, err := r.broker.Request(ctx, subject, data)
	if errors.Is(err, nats.ErrNoResponders) {
		return ErrNoLeader
	}
	if err != nil {
		return fmt.Errorf("ask the leading control-plane process: %w", err)
	}
	return json.Unmarshal(msg.Data, out)
}

// Trigger implements buildRequests.
func (r leaderForwarder) Trigger(ctx context.Context, reason string, repositories []string) (string, bool, error) {
	data, _ := json.Marshal(triggerRequest{Reason: reason, Repositories: repositories})
	var rep triggerReply
	if err := r.request(ctx, subjectForwardTrigger, data, &rep); err != nil {
		return "", false, err
	}
	switch {
	case rep.Closed:
		return "", false, fmt.Errorf("%w (the leading process)", ErrClosed)
	case rep.Error != "":
		return "", false, errors.New(rep.Error)
	}
	return rep.BuildID, rep.Coalesced, nil
}

// Build implements buildRequests.
func (r leaderForwarder) Build(id string) (BuildRecord, bool) {
	var rep buildReply
	if err := r.request(context.Background(), subjectForwardBuild, []byte(id), &rep); err != nil {
		return BuildRecord{}, false
	}
	return rep.Build, rep.Found
}

// Recent implements buildRequests.
func (r leaderForwarder) Recent() []BuildRecord {
	var builds []BuildRecord
	if err := r.request(context.Background(), subjectForwardRecent, nil, &builds); err != nil {
		return nil
	}
	return builds
}

// leadOrForward answers the build requests of a process that may lead or
// follow: with the local coordinator while it leads, through the
// forwarder otherwise.
type leadOrForward struct {
	remote leaderForwarder
	mu     sync.Mutex
	local  *Coordinator
}

func (s *leadOrForward) current() buildRequests {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.local != nil {
		return s.local
	}
	return s.remote
}

func (s *leadOrForward) set(c *Coordinator) {
	s.mu.Lock()
	s.local = c
	s.mu.Unlock()
}

// leads reports whether this process leads the control plane.
func (s *leadOrForward) leads() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.local != nil
}

// Trigger implements buildRequests.
func (s *leadOrForward) Trigger(ctx context.Context, reason string, repositories []string) (string, bool, error) {
	return s.current().Trigger(ctx, reason, repositories)
}

// Build implements buildRequests.
func (s *leadOrForward) Build(id string) (BuildRecord, bool) { return s.current().Build(id) }

// Recent implements buildRequests.
func (s *leadOrForward) Recent() []BuildRecord { return s.current().Recent() }
