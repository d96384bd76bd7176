package admin

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/daemon/preview"
)

// Previews is what the admin API needs of the daemon's previews (package
// preview's Manager); nil when daemon.previews is off.
type Previews interface {
	Request(req preview.Request) (preview.Status, error)
	Get(id string) (preview.Status, bool)
	List() []preview.Status
	Delete(id string) error
}

// Error codes of the previews endpoints.
const (
	codePreviewsOff      = "previews_disabled" // 404: daemon.previews.enabled is false
	codePreviewNotFound  = "preview_not_found" // 404: no such preview
	codePreviewRefused   = "preview_refused"   // 400: unknown repository
	maxPreviewBody       = 4 << 10
	maxRefLength         = 255
	previewsDisabledText = "previews are off; set daemon.previews.enabled: true"
)

// PreviewRequest is the body of POST /api/previews.
type PreviewRequest struct {
	Repository string `json:"repository"`
	Ref        string `json:"ref"`
}

// PreviewResponse is the 202 body of POST /api/previews.
type PreviewResponse struct {
	ID        string `json:"id"`
	URL       string `json:"url"`
	StatusURL string `json:"status_url"`
}

// previewsHandler serves /api/previews and /api/previews/{id}.
type previewsHandler struct {
	previews Previews
	log      zerolog.Logger
}

func (h previewsHandler) enabled(w http.ResponseWriter) bool {
	if h.previews == nil {
		writeError(w, http.StatusNotFound, codePreviewsOff, previewsDisabledText)
		return false
	}
	return true
}

// collection serves GET (list) and POST (create) /api/previews.
func (h previewsHandler) collection(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		h.create(w, r)
		return
	}
	h.list(w, r)
}

// create serves POST /api/previews.
func (h previewsHandler) create(w http.ResponseWriter, r *http.Request) {
	if !h.enabled(w) {
		return
	}
	req, err := readPreviewRequest(w, r)
	if err != nil {
		status := http.StatusBadRequest
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		writeError(w, status, codeInvalidRequest, err.Error())
		return
	}
	st, err := h.previews.Request(preview.Request{Repository: req.Repository, Ref: req.Ref, Title: "ref " + req.Ref})
	switch {
	case errors.Is(err, preview.ErrUnknownRepository):
		writeError(w, http.StatusBadRequest, codePreviewRefused, err.Error())
		return
	case err != nil:
		w.Header().Set("Retry-After", "30")
		writeError(w, http.StatusServiceUnavailable, codeNotAccepting, err.Error())
		return
	}
	statusURL := "/api/previews/" + url.PathEscape(st.ID)
	h.log.Info().Str("preview", st.ID).Str("repository", req.Repository).Str("ref", req.Ref).Msg("preview requested")
	w.Header().Set("Location", statusURL)
	writeJSON(w, http.StatusAccepted, PreviewResponse{ID: st.ID, URL: st.URL, StatusURL: statusURL})
}

// list serves GET /api/previews.
func (h previewsHandler) list(w http.ResponseWriter, r *http.Request) {
	if !h.enabled(w) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"previews": h.previews.List()})
}

// one serves GET and DELETE /api/previews/{id}.
func (h previewsHandler) one(w http.ResponseWriter, r *http.Request) {
	if !h.enabled(w) {
		return
	}
	id := r.PathValue("id")
	if r.Method == http.MethodDelete {
		if err := h.previews.Delete(id); err != nil {
			writeError(w, http.StatusNotFound, codePreviewNotFound, "no preview with this id")
			return
		}
		h.log.Info().Str("preview", id).Msg("preview deleted")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	st, ok := h.previews.Get(id)
	if !ok {
		writeError(w, http.StatusNotFound, codePreviewNotFound, "no preview with this id (unknown, expired or deleted)")
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// readPreviewRequest reads and checks the body of POST /api/previews.
func readPreviewRequest(w http.ResponseWriter, r *http.Request) (PreviewRequest, error) {
	var req PreviewRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPreviewBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return req, err
		}
		return req, errors.New("request body: could not be read")
	}
	if err := decodeStrict(body, &req); err != nil {
		return req, fmt.Errorf("%w; expected {\"repository\": NAME, \"ref\": BRANCH_OR_TAG}", err)
	}
	req.Repository, req.Ref = strings.TrimSpace(req.Repository), strings.TrimSpace(req.Ref)
	switch {
	case req.Repository == "":
		return req, errors.New("request body: repository: expected a configured repository's name")
	case req.Ref == "":
		return req, errors.New("request body: ref: expected a branch or tag name")
	case len(req.Ref) > maxRefLength || strings.HasPrefix(req.Ref, "-") || strings.IndexFunc(req.Ref, unicode.IsControl) >= 0 || strings.ContainsAny(req.Ref, " ~^:?*[\\"):
		return req, fmt.Errorf("request body: ref: %q is not a Git branch or tag name", req.Ref)
	}
	return req, nil
}
