package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// Runner runs stages against a broker.
type Runner struct {
	js     roles.JetStream
	log    zerolog.Logger
	stages []Stage
	// Observe, when set, is told about every handled delivery (for metrics
	// and tests). It must be fast.
	Observe func(Delivery)
	// FanIns, when set, records repeated deliveries in the build's state,
	// so the build report shows them.
	FanIns *buildstate.FanIns
	// DropBuildsBefore, when set, is a build ID: messages of builds with
	// smaller IDs (started before it) are acknowledged without being
	// handled. A daemon that owns its broker sets it at start-up, so the
	// work of builds a killed predecessor left half done is dropped, not
	// finished late (see RedeliverNow).
	DropBuildsBefore string
}

// Delivery describes one handled message.
type Delivery struct {
	Stage     string
	Subject   string
	MessageID string
	BuildID   string
	Attempt   uint64
	Duration  time.Duration
	Outcome   string // acked | nakked | terminated
	Err       error
}

// Delivery outcomes.
const (
	OutcomeAcked      = "acked"
	OutcomeNakked     = "nakked"
	OutcomeTerminated = "terminated"
	OutcomeDropped    = "dropped" // a message of a build from before DropBuildsBefore
)

// NewRunner prepares a runner for the given stages.
func NewRunner(js roles.JetStream, log zerolog.Logger, stages []Stage) *Runner {
	return &Runner{js: js, log: log, stages: stages}
}

// Run provisions each stage's consumer and handles messages until ctx is
// cancelled; then it stops fetching, lets handlers in flight finish (their
// messages are acked or handed back) and returns.
func (r *Runner) Run(ctx context.Context) error {
	var consumers []jetstream.ConsumeContext
	// inflight counts the handlers running. A delivery can still reach a
	// callback after the consumers were stopped; once stopping is set it is
	// handed back instead, so no handler starts (and no Add races the
	// final Wait) after shutdown began.
	var inflight sync.WaitGroup
	var mu sync.Mutex
	stopping := false
	stopAll := func() {
		for _, c := range consumers {
			c.Stop()
		}
	}
	for _, st := range r.stages {
		var cons jetstream.Consumer
		err := natsbroker.RetryWhileElecting(ctx, func(ctx context.Context) error {
			var err error
			cons, err = ProvisionConsumer(ctx, r.js, st)
			return err
		})
		if err != nil {
			stopAll()
			return err
		}
		for i := 0; i < st.concurrency(); i++ {
			st := st
			cc, err := cons.Consume(func(msg jetstream.Msg) {
				mu.Lock()
				if stopping {
					mu.Unlock()
					_ = msg.Nak() // another replica, or this process's next run, takes it
					return
				}
				inflight.Add(1)
				mu.Unlock()
				defer inflight.Done()
				r.handle(ctx, st, msg)
			}, jetstream.PullMaxMessages(1), jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
				if !errors.Is(err, jetstream.ErrNoHeartbeat) {
					r.log.Debug().Err(err).Str("stage", st.Name).Msg("consume")
				}
			}))
			if err != nil {
				stopAll()
				return fmt.Errorf("consume for stage %s: %w", st.Name, err)
			}
			consumers = append(consumers, cc)
		}
		r.log.Debug().Str("stage", st.Name).Int("concurrency", st.concurrency()).Msg("stage running")
	}
	<-ctx.Done()
	stopAll()
	mu.Lock()
	stopping = true
	mu.Unlock()
	inflight.Wait()
	return nil
}

// handle decodes one delivery and runs it through the stage's handler
// wrapped in the runner's middlewares (middlewares), whose settle step
// publishes what the handler returned and acknowledges the message. A
// message that cannot be decoded goes through the same chain with a
// handler that refuses it, so it is terminated and observed like any
// other.
func (r *Runner) handle(ctx context.Context, st Stage, msg jetstream.Msg) {
	d := &delivery{start: time.Now(), stage: st, msg: msg,
		Delivery: Delivery{Stage: st.Name, Subject: msg.Subject(), MessageID: msg.Headers().Get(jetstream.MsgIDHeader)}}
	if md, err := msg.Metadata(); err == nil {
		d.Attempt = md.NumDelivered
	}
	d.log = r.log.With().Str("stage", st.Name).Str("subject", d.Subject).Str("message_id", d.MessageID).Uint64("attempt", d.Attempt).Logger()

	handler := st.Handle
	ev, err := events.Decode(msg.Subject(), msg.Data())
	if err != nil {
		handler = refuse(Permanent(err))
	} else {
		d.BuildID = ev.Head().BuildID
		d.log = d.log.With().Str("build_id", d.BuildID).Logger()
	}
	// The handler runs with its own context: a shutdown lets it finish
	// rather than cutting a clone or render in half, and publishing
	// belongs to its work: a shutdown must not cut it off between a
	// delivered message and its acknowledgement.
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	_, _ = chain(handler, r.middlewares(st)...)(withDelivery(hctx, d), ev)
}

// middlewares are the layers around a stage's handler, outermost first:
// observation of the settled delivery, the runner's own settling
// (publish, then ack, nak or terminate), dropping the messages of stale
// builds and noting redeliveries (each when the runner is configured
// for it), progress signals while the handler works, and recovery from
// its panics.
func (r *Runner) middlewares(st Stage) []Middleware {
	var mws []Middleware
	if r.Observe != nil {
		mws = append(mws, observe(r.Observe))
	}
	mws = append(mws, r.settle)
	if r.DropBuildsBefore != "" {
		mws = append(mws, dropBuildsBefore(r.DropBuildsBefore))
	}
	if r.FanIns != nil {
		mws = append(mws, noteRedeliveries(r.FanIns))
	}
	return append(mws, keepAlive(st.ackWait()), recoverPanics(st.Name))
}

// refuse is the handler of a message that cannot be handled at all.
func refuse(err error) Handler {
	return func(context.Context, events.Event) ([]events.Event, error) { return nil, err }
}

// settle publishes what the handler returned, if the stage declares it,
// and settles the message: ack on success, nak with delay for a transient
// failure, terminate (with a stage.failed record) for a permanent one or
// after the stage's last delivery.
func (r *Runner) settle(next Handler) Handler {
	return func(ctx context.Context, ev events.Event) ([]events.Event, error) {
		d := deliveryOf(ctx)
		st, msg, log := d.stage, d.msg, d.log
		out, err := next(ctx, ev)
		if err == nil {
			for _, ev := range out {
				if !st.declares(ev) {
					err = Permanentf("stage %s returned a %s message, which it does not declare among the subjects it publishes %v", st.Name, ev.Subject(), st.Publishes)
					break
				}
			}
		}
		if err == nil {
			err = r.publishAll(ctx, out)
		}
		switch {
		case err == nil:
			if aerr := msg.Ack(); aerr != nil {
				log.Warn().Err(aerr).Msg("ack failed; the message may be redelivered")
			}
			if d.Outcome == "" { // not dropped
				d.Outcome = OutcomeAcked
				log.Debug().Dur("duration", time.Since(d.start)).Int("published", len(out)).Msg("handled")
			}
		case IsPermanent(err) || d.Attempt >= uint64(st.maxDeliver()):
			r.terminate(log, st, msg, &d.Delivery, err)
		default:
			delay := retryDelay(err, d.Attempt)
			d.Outcome, d.Err = OutcomeNakked, err
			log.Warn().Err(err).Dur("retry_in", delay).Msg("transient failure; will retry")
			if nerr := msg.NakWithDelay(delay); nerr != nil {
				log.Warn().Err(nerr).Msg("nak failed")
			}
		}
		return out, err
	}
}

// terminate gives up on a message and records why, on the stage.failed
// subject, so that the failure is visible to whoever waits for the build.
func (r *Runner) terminate(log zerolog.Logger, st Stage, msg jetstream.Msg, d *Delivery, err error) {
	d.Outcome, d.Err = OutcomeTerminated, err
	log.Error().Err(err).Msg("message terminated")
	buildID := d.BuildID
	if buildID == "" {
		buildID = "unknown"
	}
	rec := &events.StageFailed{
		Header:     events.Header{ID: "stage.failed:" + st.Name + ":" + d.MessageID, BuildID: buildID},
		Stage:      st.Name,
		MessageID:  d.MessageID,
		OnSubject:  d.Subject,
		Reason:     err.Error(),
		Deliveries: d.Attempt,
		FailedAt:   time.Now().UTC(),
	}
	if perr := Publish(context.Background(), r.js, rec); perr != nil {
		log.Error().Err(perr).Msg("could not record the terminated message")
	}
	reason := err.Error()
	if len(reason) > 200 {
		reason = reason[:200]
	}
	if terr := msg.TermWithReason(reason); terr != nil {
		log.Warn().Err(terr).Msg("term failed")
	}
}

func (r *Runner) publishAll(ctx context.Context, out []events.Event) error {
	for _, ev := range out {
		if err := Publish(ctx, r.js, ev); err != nil {
			if errors.Is(err, nats.ErrMaxPayload) {
				// The same message would be refused again.
				return Permanent(err)
			}
			return Transient(err, 0)
		}
	}
	return nil
}

// Publish sends one event to JetStream, using its ID for de-duplication.
func Publish(ctx context.Context, js roles.Publisher, ev events.Event) error {
	data, err := events.Encode(ev)
	if err != nil {
		return err
	}
	msg := &nats.Msg{Subject: ev.Subject(), Data: data, Header: nats.Header{}}
	msg.Header.Set(jetstream.MsgIDHeader, ev.Head().ID)
	msg.Header.Set("Docweave-Build-Id", ev.Head().BuildID)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := js.PublishMsg(pctx, msg); err != nil {
		return fmt.Errorf("publish %s %s: %w", ev.Subject(), ev.Head().ID, err)
	}
	return nil
}
