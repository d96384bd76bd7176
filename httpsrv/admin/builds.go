package admin

import "net/http"

// buildHandler serves GET /api/builds/{id}: the status of one build,
// including its report once it has one.
type buildHandler struct{ backend Backend }

func (h buildHandler) serve(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	status, ok := h.backend.Build(id)
	if !ok {
		writeError(w, http.StatusNotFound, codeBuildNotFound, "no build with this ID (unknown, or too old to be remembered)")
		return
	}
	writeJSON(w, http.StatusOK, status)
}
