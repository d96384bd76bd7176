package hugobuild

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/bep/logg"
	"github.com/rs/zerolog"
)

func decodeLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		out = append(out, m)
	}
	return out
}

func TestHugoLoggerForwardsWarningsAndErrors(t *testing.T) {
	var buf bytes.Buffer
	errs := &Errors{}
	hl := newHugoLogger(zerolog.New(&buf).Level(zerolog.InfoLevel), errs)
	hl.Warnf("template %s is slow", "page.html")
	hl.Errorf("render failed")
	hl.Infof("internal detail") // below the logger's level: dropped
	hl.Warnf("template %s is slow", "page.html")

	lines := decodeLines(t, &buf)
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2 (warning once, error): %s", len(lines), buf.String())
	}
	if lines[0]["level"] != "warn" || lines[0]["message"] != "template page.html is slow" || lines[0]["source"] != "hugo" {
		t.Errorf("warning line = %v", lines[0])
	}
	if lines[1]["level"] != "error" || lines[1]["message"] != "render failed" {
		t.Errorf("error line = %v", lines[1])
	}
	if errs.String() != "render failed" {
		t.Errorf("recorded errors = %q, want the logged error", errs.String())
	}
}

func TestHugoLoggerForwardsInfoAsDebugWithFields(t *testing.T) {
	var buf bytes.Buffer
	errs := &Errors{}
	hl := newHugoLogger(zerolog.New(&buf).Level(zerolog.DebugLevel), errs)
	hl.InfoCommand("build").WithField("pages", 3).Logf("done")

	lines := decodeLines(t, &buf)
	if len(lines) != 1 {
		t.Fatalf("got %d lines: %s", len(lines), buf.String())
	}
	l := lines[0]
	if l["level"] != "debug" || l["hugo_command"] != "build" || l["hugo_pages"] != float64(3) || l["message"] != "done" {
		t.Errorf("line = %v", l)
	}
	for k := range l {
		if strings.HasPrefix(k, hugoFieldPrefix) || strings.HasPrefix(k, "hugo___h") {
			t.Errorf("internal field %q leaked", k)
		}
	}
	if errs.String() != "" {
		t.Errorf("recorded errors = %q, want none", errs.String())
	}
}

func TestForwardHugoEntryMapsLevels(t *testing.T) {
	for level, want := range map[logg.Level]string{
		logg.LevelError: "error",
		logg.LevelWarn:  "warn",
		logg.LevelInfo:  "debug",
		logg.LevelDebug: "trace",
		logg.LevelTrace: "trace",
	} {
		var buf bytes.Buffer
		forwardHugoEntry(zerolog.New(&buf).Level(zerolog.TraceLevel), &logg.Entry{Level: level, Message: " m \n"})
		lines := decodeLines(t, &buf)
		if len(lines) != 1 || lines[0]["level"] != want || lines[0]["message"] != "m" {
			t.Errorf("Hugo level %v forwarded as %v, want %s", level, lines, want)
		}
	}
}

func TestHugoErrorsKeepsTheFirstFew(t *testing.T) {
	var h Errors
	for _, m := range []string{"a", "b", "c", "d"} {
		h.add(m)
	}
	if h.String() != "a; b; c" {
		t.Errorf("recorded = %q, want the first %d", h.String(), maxRecordedErrors)
	}
}

func TestLoggedElsewhereOnlyWhenThisBuildRecordedNothing(t *testing.T) {
	hugoSays := errors.New("logged 1 error(s)")
	if !LoggedElsewhere(hugoSays, 0) {
		t.Error("Hugo counted an error this build did not record: not seen as another build's")
	}
	if LoggedElsewhere(hugoSays, 1) {
		t.Error("an error this build recorded was taken for another build's")
	}
	if LoggedElsewhere(errors.New("render of \"/docs/x\" failed"), 0) || LoggedElsewhere(nil, 0) {
		t.Error("another failure was taken for a miscounted error")
	}
}
