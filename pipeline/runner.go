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
)

// Runner runs stages against a broker.
type Runner struct {
	js     jetstream.JetStream
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
func NewRunner(js jetstream.JetStream, log zerolog.Logger, stages []Stage) *Runner {
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
		err := RetryWhileElecting(ctx, func(ctx context.Context) error {
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

// handle runs one delivery through a stage and settles it.
func (r *Runner) handle(ctx context.Context, st Stage, msg jetstream.Msg) {
	start := time.Now()
	d := Delivery{Stage: st.Name, Subject: msg.Subject(), MessageID: msg.Headers().Get(jetstream.MsgIDHeader)}
	if md, err := msg.Metadata(); err == nil {
		d.Attempt = md.NumDelivered
	}
	log := r.log.With().Str("stage", st.Name).Str("subject", d.Subject).Str("message_id", d.MessageID).Uint64("attempt", d.Attempt).Logger()

	ev, err := events.Decode(msg.Subject(), msg.Data())
	if err != nil {
		r.terminate(log, st, msg, &d, Permanent(err))
		r.observe(d, start)
		return
	}
	d.BuildID = ev.Head().BuildID
	log = log.With().Str("build_id", d.BuildID).Logger()
	if r.DropBuildsBefore != "" && d.BuildID < r.DropBuildsBefore {
		d.Outcome = OutcomeDropped
		log.Info().Msg("message of a build an earlier run of this process left unfinished: dropped")
		if aerr := msg.Ack(); aerr != nil {
			log.Warn().Err(aerr).Msg("ack failed")
		}
		r.observe(d, start)
		return
	}
	if d.Attempt > 1 && r.FanIns != nil {
		log.Info().Msg("message delivered again")
		if err := r.FanIns.NoteRedelivery(ctx, d.BuildID, st.Name); err != nil {
			log.Debug().Err(err).Msg("redelivery not recorded")
		}
	}

	// The handler runs with its own context: a shutdown lets it finish
	// rather than cutting a clone or render in half. Progress keeps the
	// broker from handing the message to another replica meanwhile.
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stopProgress := r.keepAlive(hctx, msg, st.ackWait())
	out, err := recovered(hctx, st.Name, st.Handle, ev)
	stopProgress()
	cancel()

	if err == nil {
		for _, ev := range out {
			if !st.declares(ev) {
				err = Permanentf("stage %s returned a %s message, which it does not declare among the subjects it publishes %v", st.Name, ev.Subject(), st.Publishes)
				break
			}
		}
	}
	if err == nil {
		// Publishing belongs to the handler's work: a shutdown must not cut
		// it off between a delivered message and its acknowledgement.
		err = r.publishAll(context.WithoutCancel(ctx), out)
	}
	switch {
	case err == nil:
		if aerr := msg.Ack(); aerr != nil {
			log.Warn().Err(aerr).Msg("ack failed; the message may be redelivered")
		}
		d.Outcome = OutcomeAcked
		log.Debug().Dur("duration", time.Since(start)).Int("published", len(out)).Msg("handled")
	case IsPermanent(err) || d.Attempt >= uint64(st.maxDeliver()):
		r.terminate(log, st, msg, &d, err)
	default:
		delay := retryDelay(err, d.Attempt)
		d.Outcome, d.Err = OutcomeNakked, err
		log.Warn().Err(err).Dur("retry_in", delay).Msg("transient failure; will retry")
		if nerr := msg.NakWithDelay(delay); nerr != nil {
			log.Warn().Err(nerr).Msg("nak failed")
		}
	}
	r.observe(d, start)
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

// keepAlive tells the broker the message is still being worked on, at a
// third of the ack wait, until the returned function is called.
func (r *Runner) keepAlive(ctx context.Context, msg jetstream.Msg, ackWait time.Duration) func() {
	done := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTicker(ackWait / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}

func (r *Runner) observe(d Delivery, start time.Time) {
	d.Duration = time.Since(start)
	if r.Observe != nil {
		r.Observe(d)
	}
}

// Publish sends one event to JetStream, using its ID for de-duplication.
func Publish(ctx context.Context, js jetstream.JetStream, ev events.Event) error {
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
