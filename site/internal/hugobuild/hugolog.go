package hugobuild

import (
	"io"
	"strings"
	"sync"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/common/loggers"
	"github.com/rs/zerolog"
)

// hugoFieldPrefix marks Hugo's internal log fields, which are not meant
// for readers.
const hugoFieldPrefix = "__h_field_"

// maxRecordedErrors bounds how many of Hugo's logged errors are quoted in
// the error Render returns; all of them are logged regardless.
const maxRecordedErrors = 3

// maxKeptErrors bounds how many logged errors are kept for finding the
// pages that failed.
const maxKeptErrors = 1000

// Errors records the errors Hugo logs. When a template calls errorf,
// Hugo's build fails with only "logged N error(s)"; the recorded messages
// let Render say what the errors were and which pages they came from.
type Errors struct {
	mu       sync.Mutex
	messages []string
}

func (h *Errors) add(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.messages) < maxKeptErrors {
		h.messages = append(h.messages, msg)
	}
}

// String joins the first recorded messages, or returns "" when there are
// none.
func (h *Errors) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.messages[:min(len(h.messages), maxRecordedErrors)], "; ")
}

// all returns a copy of every recorded message.
func (h *Errors) All() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.messages...)
}

// newHugoLogger returns a Hugo logger that forwards every entry to zl,
// records errors in errs and writes nothing to stdout or stderr.
// Hugo's info messages describe its build internals, so they are forwarded
// at debug level and only produced when zl logs debug; warnings and errors
// keep their level. Repeated warnings are dropped, as Hugo's own command
// does.
func newHugoLogger(zl zerolog.Logger, errs *Errors) loggers.Logger {
	level := logg.LevelWarn
	if zl.GetLevel() <= zerolog.DebugLevel {
		level = logg.LevelInfo
	}
	return loggers.New(loggers.Options{
		Level:         level,
		StdOut:        io.Discard,
		StdErr:        io.Discard,
		DistinctLevel: logg.LevelWarn,
		HandlerPost: func(e *logg.Entry) error {
			if e.Level >= logg.LevelError {
				errs.add(strings.TrimSpace(e.Message))
			}
			forwardHugoEntry(zl, e)
			return nil
		},
	})
}

// forwardHugoEntry writes one Hugo log entry to zl, with Hugo's fields
// prefixed "hugo_" so they never collide with docweave's field names.
func forwardHugoEntry(zl zerolog.Logger, e *logg.Entry) {
	var ev *zerolog.Event
	switch e.Level {
	case logg.LevelError:
		ev = zl.Error()
	case logg.LevelWarn:
		ev = zl.Warn()
	case logg.LevelInfo:
		ev = zl.Debug()
	default:
		ev = zl.Trace()
	}
	for _, f := range e.Fields {
		switch {
		case f.Name == loggers.FieldNameCmd:
			ev = ev.Interface("hugo_command", f.Value)
		case strings.HasPrefix(f.Name, hugoFieldPrefix):
		default:
			ev = ev.Interface("hugo_"+f.Name, f.Value)
		}
	}
	ev.Str("source", "hugo").Msg(strings.TrimSpace(e.Message))
}
