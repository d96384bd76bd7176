package pipeline

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// Handler is a stage's job: a function of (context, event) returning the
// events to publish next. It must be idempotent — a message may be delivered
// again after a crash — and it never publishes or acknowledges itself.
type Handler func(ctx context.Context, ev events.Event) ([]events.Event, error)

// Stage is a registered stage ready to run.
type Stage struct {
	// Name is the stage's fixed name, used on command lines.
	Name string
	// Subjects are the subjects it consumes.
	Subjects []string
	// Publishes are the subjects of the messages it may return (a
	// configurable subject by the key its message type is registered
	// under, see events.Kind). The runner refuses any other, so these
	// declarations are the pipeline's flow as it really is; docs/events.md
	// draws it from them.
	Publishes []string
	// Handle does the work.
	Handle Handler
	// Concurrency is how many messages one process handles at once (≥1).
	Concurrency int
	// AckWait is how long a delivery may go without progress before the
	// broker hands it to another replica; the runner signals progress while
	// the handler runs, so it need not cover the whole job.
	AckWait time.Duration
	// MaxDeliver bounds redeliveries of one message.
	MaxDeliver int
	// FormerNames are the names a renamed stage had: its consumer takes
	// over the durable consumers of those names (NewStages fills it from
	// Register).
	FormerNames []string
	// Setup, when set, runs each time the stage's consumer is provisioned,
	// before any message is handled, with the broker's JetStream API. It is
	// for the rare stage that owns broker resources besides its messages —
	// verifylinks keeps a cache bucket and a stream of broken-link events —
	// and must be idempotent. Messages still go out only as returned events.
	Setup func(ctx context.Context, js roles.JetStream) error
}

func (s Stage) ackWait() time.Duration {
	if s.AckWait <= 0 {
		return 30 * time.Second
	}
	return s.AckWait
}

func (s Stage) maxDeliver() int {
	if s.MaxDeliver <= 0 {
		return 5
	}
	return s.MaxDeliver
}

func (s Stage) concurrency() int {
	if s.Concurrency <= 0 {
		return 1
	}
	return s.Concurrency
}

func (s Stage) maxAckPending() int {
	return 4 * s.concurrency()
}

// Deps is what a stage may use besides its messages. Stages never get the
// broker connection: they talk only through the events they return.
type Deps struct {
	Config    *config.Config
	Store     artifact.Store
	FanIns    *buildstate.FanIns
	States    *buildstate.States
	Workspace string // the workspace directory of this process
	Log       zerolog.Logger
}

// Factory builds a stage from its dependencies.
type Factory func(Deps) (Stage, error)

var (
	registryMu sync.Mutex
	registry   = map[string]Factory{}
	// formerNames maps a renamed stage's former name to its name.
	formerNames = map[string]string{}
)

// Register makes a stage available under name; stage packages call it from
// init, and a binary chooses its stages by importing their packages. A
// renamed stage lists its former names: they are still accepted wherever
// stages are named, and its consumer takes over theirs (ProvisionConsumer).
func Register(name string, f Factory, former ...string) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("pipeline: stage registered twice: " + name)
	}
	registry[name] = f
	for _, old := range former {
		if _, dup := formerNames[old]; dup {
			panic("pipeline: former stage name registered twice: " + old)
		}
		formerNames[old] = name
	}
}

// Registered lists the registered stage names in order.
func Registered() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CurrentName returns the name a stage has now: name itself, or the new
// name of a renamed stage's former name (renamed is then true, for a
// warning that asks to update the command line).
func CurrentName(name string) (current string, renamed bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if n, ok := formerNames[name]; ok {
		return n, true
	}
	return name, false
}

// NewStages constructs the named stages; former names of renamed stages
// are accepted, and a stage named twice is constructed once. An unknown
// name is an error listing the known ones.
func NewStages(names []string, deps Deps) ([]Stage, error) {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]Stage, 0, len(names))
	seen := map[string]bool{}
	for _, n := range names {
		if current, ok := formerNames[n]; ok {
			n = current
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		f, ok := registry[n]
		if !ok {
			known := make([]string, 0, len(registry))
			for k := range registry {
				known = append(known, k)
			}
			sort.Strings(known)
			return nil, fmt.Errorf("unknown stage %q; known stages: %v", n, known)
		}
		st, err := f(deps.withStage(n))
		if err != nil {
			return nil, fmt.Errorf("stage %s: %w", n, err)
		}
		st.Handle = boundIssues(deps.Store, deps.Scratch("spill"), st.Handle)
		if st.AckWait == 0 && deps.Config != nil {
			st.AckWait = deps.Config.Build.AckWait
		}
		for old, current := range formerNames {
			if current == n {
				st.FormerNames = append(st.FormerNames, old)
			}
		}
		sort.Strings(st.FormerNames)
		out = append(out, st)
	}
	return out, nil
}

func (d Deps) withStage(name string) Deps {
	d.Log = d.Log.With().Str("stage", name).Logger()
	return d
}

// declares reports whether the stage declared ev's subject among the ones
// it publishes.
func (s Stage) declares(ev events.Event) bool {
	kind := events.Kind(ev)
	for _, p := range s.Publishes {
		if p == kind {
			return true
		}
	}
	return false
}
