package admin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rs/zerolog"
)

// Limits of a trigger request.
const (
	// maxTriggerBody caps the request body; a list of every repository of
	// a large site fits many times over.
	maxTriggerBody = 64 << 10
	// maxNoteLength caps the free-text reason a client may add.
	maxNoteLength = 200
	// ReasonAdmin is the build reason of every trigger from this server.
	// A client's own reason is appended as a note ("admin: <note>"), so a
	// build started here can never pose as a webhook or cron build.
	ReasonAdmin = "admin"
)

// TriggerRequest is the optional JSON body of POST /api/build/trigger.
type TriggerRequest struct {
	// Repositories limits the build to these configured names; empty
	// builds all.
	Repositories []string `json:"repositories"`
	// Reason is a note for the build report and the logs.
	Reason string `json:"reason"`
}

// TriggerResponse is the 202 body of POST /api/build/trigger.
type TriggerResponse struct {
	BuildID string `json:"build_id"`
	// Coalesced is true when the request joined a build already waiting
	// to start instead of queueing a new one.
	Coalesced bool `json:"coalesced"`
	// StatusURL is where the build's status can be followed.
	StatusURL string `json:"status_url"`
}

// triggerHandler serves POST /api/build/trigger.
type triggerHandler struct {
	backend Backend
	log     zerolog.Logger
}

func (h triggerHandler) serve(w http.ResponseWriter, r *http.Request) {
	req, status, code, err := readTriggerRequest(w, r)
	if err != nil {
		writeError(w, status, code, err.Error())
		return
	}
	reason := ReasonAdmin
	if req.Reason != "" {
		reason += ": " + req.Reason
	}
	id, coalesced, err := h.backend.Trigger(r.Context(), reason, req.Repositories)
	switch {
	case errors.Is(err, ErrUnknownRepository):
		writeError(w, http.StatusBadRequest, codeUnknownRepository, err.Error())
		return
	case errors.Is(err, ErrNotAccepting):
		w.Header().Set("Retry-After", "30")
		writeError(w, http.StatusServiceUnavailable, codeNotAccepting, err.Error())
		return
	case err != nil:
		h.log.Error().Err(err).Strs("repositories", req.Repositories).Msg("trigger build")
		writeError(w, http.StatusInternalServerError, codeInternal, "the build could not be requested; see the daemon log")
		return
	case id == "":
		h.log.Error().Msg("trigger build: backend returned an empty build ID")
		writeError(w, http.StatusInternalServerError, codeInternal, "the build could not be requested; see the daemon log")
		return
	}
	statusURL := "/api/builds/" + url.PathEscape(id)
	h.log.Info().Str("build_id", id).Bool("coalesced", coalesced).Str("reason", reason).
		Strs("repositories", req.Repositories).Msg("build triggered")
	w.Header().Set("Location", statusURL)
	writeJSON(w, http.StatusAccepted, TriggerResponse{BuildID: id, Coalesced: coalesced, StatusURL: statusURL})
}

// readTriggerRequest reads and checks the optional body. On failure it
// returns the status, the error code and an error whose text names what
// was wrong and what was expected.
func readTriggerRequest(w http.ResponseWriter, r *http.Request) (TriggerRequest, int, string, error) {
	var req TriggerRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxTriggerBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return req, http.StatusRequestEntityTooLarge, codeBodyTooLarge,
				fmt.Errorf("request body: larger than %d bytes", maxTriggerBody)
		}
		return req, http.StatusBadRequest, codeInvalidRequest, fmt.Errorf("request body: could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return req, 0, "", nil // no body: build everything
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return req, http.StatusUnsupportedMediaType, codeUnsupportedMediaType,
				fmt.Errorf("Content-Type: expected application/json")
		}
	}
	if err := decodeStrict(body, &req); err != nil {
		return req, http.StatusBadRequest, codeInvalidRequest, err
	}
	if err := req.normalize(); err != nil {
		return req, http.StatusBadRequest, codeInvalidRequest, err
	}
	return req, 0, "", nil
}

// decodeStrict decodes one JSON object, refusing unknown fields and
// trailing data, with errors that name the field and the expected type.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return fmt.Errorf("request body: field %q: expected %s, got JSON %s", typeErr.Field, expectedType(typeErr.Field), typeErr.Value)
		case errors.As(err, &typeErr):
			return fmt.Errorf("request body: expected a JSON object {\"repositories\": [...], \"reason\": \"...\"}, got JSON %s", typeErr.Value)
		case errors.As(err, &syntaxErr):
			return fmt.Errorf("request body: invalid JSON at byte %d", syntaxErr.Offset)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.TrimPrefix(err.Error(), "json: unknown field ")
			return fmt.Errorf("request body: unknown field %s; expected only \"repositories\" and \"reason\"", field)
		default:
			return fmt.Errorf("request body: invalid JSON (%v)", err)
		}
	}
	if dec.More() {
		return errors.New("request body: expected a single JSON object, found more data after it")
	}
	return nil
}

func expectedType(field string) string {
	if strings.HasPrefix(field, "repositories") {
		return "an array of repository names (strings)"
	}
	return "a string"
}

// normalize checks the request, trims names and drops duplicate names
// (keeping the first), so the backend sees a clean list.
func (req *TriggerRequest) normalize() error {
	seen := make(map[string]bool, len(req.Repositories))
	names := req.Repositories[:0]
	for i, name := range req.Repositories {
		name = strings.TrimSpace(name)
		if name == "" {
			return fmt.Errorf("request body: repositories[%d]: expected a repository name, got an empty string", i)
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
	}
	req.Repositories = names
	req.Reason = strings.TrimSpace(req.Reason)
	if n := utf8.RuneCountInString(req.Reason); n > maxNoteLength {
		return fmt.Errorf("request body: reason: expected at most %d characters, got %d", maxNoteLength, n)
	}
	for _, c := range req.Reason {
		if unicode.IsControl(c) {
			return errors.New("request body: reason: expected a single line of text without control characters")
		}
	}
	return nil
}
