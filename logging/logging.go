// Package logging builds the one zerolog logger every docweave command uses,
// so that field names and formats are the same in every process an operator
// runs, whether the output is read by a person or shipped to a log store.
package logging

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Stable field names used across the code base. Log queries and alerts are
// written against these, so they never change silently.
const (
	FieldBuildID    = "build_id"
	FieldMessageID  = "message_id"
	FieldStage      = "stage"
	FieldRepository = "repository"
	FieldSubject    = "subject"
	FieldServer     = "server"
	FieldDuration   = "duration_ms"
)

// Formats accepted by --log-format.
const (
	FormatJSON    = "json"
	FormatConsole = "console"
	FormatAuto    = "auto"
)

// New returns a logger writing to w. Format "auto" picks the console format
// when w is a terminal and JSON otherwise; level is a zerolog level name.
func New(w io.Writer, format, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(strings.ToLower(strings.TrimSpace(level)))
	if err != nil || level == "" {
		return zerolog.Nop(), fmt.Errorf("--log-level: %q is not one of trace, debug, info, warn, error", level)
	}
	switch format {
	case FormatAuto, "":
		if IsTerminal(w) {
			format = FormatConsole
		} else {
			format = FormatJSON
		}
	case FormatJSON, FormatConsole:
	default:
		return zerolog.Nop(), fmt.Errorf("--log-format: %q is not one of auto, json, console", format)
	}
	var out io.Writer = uniqueKeys{w}
	if format == FormatConsole {
		out = zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly}
	}
	return zerolog.New(out).Level(lvl).With().Timestamp().Logger(), nil
}

// IsTerminal reports whether w is a character device such as a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0
}
