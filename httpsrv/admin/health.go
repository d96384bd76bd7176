package admin

import (
	"errors"
	"io/fs"
	"net/http"
	"os"

	"github.com/rs/zerolog"
)

// serveHealth is liveness: it answers as long as the process serves HTTP.
func serveHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readiness answers 200 only while the rendered site's public directory
// exists, and checks it again on every request, so an orchestrator sees
// both transitions of the spec's state table: Not rendered → Rendered after
// the first render, and back when the directory disappears.
type readiness struct {
	dir string
	log zerolog.Logger
}

func (rd readiness) serve(w http.ResponseWriter, _ *http.Request) {
	info, err := os.Stat(rd.dir)
	switch {
	case err == nil && info.IsDir():
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	case err == nil:
		rd.log.Warn().Str("public_dir", rd.dir).Msg("public directory path is not a directory")
		writeError(w, http.StatusServiceUnavailable, codeNotReady, "the site's public directory is not a directory")
	case errors.Is(err, fs.ErrNotExist):
		writeError(w, http.StatusServiceUnavailable, codeNotReady, "the documentation is not rendered yet (no public directory)")
	default:
		rd.log.Warn().Err(err).Str("public_dir", rd.dir).Msg("public directory cannot be checked")
		writeError(w, http.StatusServiceUnavailable, codeNotReady, "the site's public directory cannot be checked")
	}
}
