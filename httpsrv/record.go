package httpsrv

import "net/http"

// StatusRecorder remembers the status a handler wrote, for the access
// log, request metrics and panic recovery of every docweave server. The
// first status counts (net/http ignores later ones too); a body written
// without one means 200.
type StatusRecorder struct {
	http.ResponseWriter
	status  int
	started bool
}

// Record wraps w, or returns w itself when it already records, so that
// stacked middlewares share one recorder.
func Record(w http.ResponseWriter) *StatusRecorder {
	if rec, ok := w.(*StatusRecorder); ok {
		return rec
	}
	return &StatusRecorder{ResponseWriter: w}
}

// WriteHeader implements http.ResponseWriter.
func (s *StatusRecorder) WriteHeader(code int) {
	if !s.started {
		s.status, s.started = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (s *StatusRecorder) Write(b []byte) (int, error) {
	if !s.started {
		s.status, s.started = http.StatusOK, true
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (Flush and
// SetWriteDeadline, which event streams need).
func (s *StatusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Status is the status the client got: 200 when the handler wrote none.
func (s *StatusRecorder) Status() int {
	if !s.started {
		return http.StatusOK
	}
	return s.status
}

// Started reports whether the response has begun (a status or a body was
// written): after that, an error can no longer be sent in its place.
func (s *StatusRecorder) Started() bool { return s.started }
