package livereload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Event names sent on the stream.
const (
	// EventHello is sent first on every connection, with HelloPayload.
	EventHello = "hello"
	// EventReload is sent after every publish, with Reload as payload; the
	// theme's client reloads the page when it receives it.
	EventReload = "reload"
)

// ReconnectDelay is the reconnection delay (the SSE "retry" field) the
// server asks browsers to use after a dropped connection.
const ReconnectDelay = 2 * time.Second

// Event is one server-sent event: Name becomes the "event" field and Data is
// marshalled as JSON into the "data" field.
type Event struct {
	Name string
	Data any
}

// Reload is the payload of a reload event, sent by the daemon after each
// publish: which build is now served, the site artifact, how many pages it
// has and when it was published.
type Reload struct {
	BuildID string    `json:"build_id"`
	Site    string    `json:"site"`
	Pages   int       `json:"pages"`
	Time    time.Time `json:"time"`
}

// HelloPayload is the payload of the hello event: the build last announced
// by a reload event ("" before the first), so a page can tell whether it is
// already showing the newest build.
type HelloPayload struct {
	BuildID string `json:"build_id"`
}

// encodeFrame renders one event as it goes on the wire:
//
//	event: <name>
//	id: <n>
//	data: <json>
//
// followed by an empty line. Data spanning lines (never the case for
// encoding/json output) is split into several data lines, as SSE requires.
func encodeFrame(name string, id uint64, data any) ([]byte, error) {
	payload, err := encodeData(name, data)
	if err != nil {
		return nil, err
	}
	return frameOf(name, id, payload), nil
}

// encodeData validates the event name and marshals the data, the part of
// framing that can fail and needs no lock.
func encodeData(name string, data any) ([]byte, error) {
	if name == "" || strings.ContainsAny(name, "\r\n") {
		return nil, fmt.Errorf("event name %q: expected a non-empty single line", name)
	}
	payload, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("event %s: encode data as JSON: %w", name, err)
	}
	return payload, nil
}

// frameOf assembles a frame from a valid name, an id and JSON data.
func frameOf(name string, id uint64, payload []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(name) + len(payload) + 40)
	b.WriteString("event: ")
	b.WriteString(name)
	b.WriteString("\nid: ")
	b.WriteString(strconv.FormatUint(id, 10))
	b.WriteByte('\n')
	for _, line := range bytes.Split(payload, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(bytes.TrimSuffix(line, []byte("\r")))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// retryFrame asks the browser to wait ReconnectDelay before reconnecting.
var retryFrame = []byte("retry: " + strconv.FormatInt(ReconnectDelay.Milliseconds(), 10) + "\n\n")

// heartbeatFrame is an SSE comment: ignored by browsers, but it keeps
// proxies and load balancers from closing an idle connection.
var heartbeatFrame = []byte(": ping\n\n")

// buildIDOf extracts "build_id" from a reload payload of any shape (the
// Reload struct, a map, json.RawMessage) through its JSON form.
func buildIDOf(data any) string {
	switch d := data.(type) {
	case Reload:
		return d.BuildID
	case *Reload:
		if d != nil {
			return d.BuildID
		}
		return ""
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return ""
	}
	var p struct {
		BuildID string `json:"build_id"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return ""
	}
	return p.BuildID
}
