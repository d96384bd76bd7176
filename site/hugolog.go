package site

import (
	"io"
	"strings"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/common/loggers"
	"github.com/rs/zerolog"
)

// hugoFieldPrefix marks Hugo's internal log fields, which are not meant
// for readers.
const hugoFieldPrefix = "__h_field_"

// newHugoLogger returns a Hugo logger that forwards every entry to zl and
// writes nothing to stdout or stderr. Hugo's info messages describe its
// build internals, so they are forwarded at debug level and only produced
// when zl logs debug; warnings and errors keep their level. Repeated
// warnings are dropped, as Hugo's own command does.
func newHugoLogger(zl zerolog.Logger) loggers.Logger {
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
