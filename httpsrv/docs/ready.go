package docs

import (
	"net/http"
	"os"
)

// Ready is the spec's site readiness: the site counts as rendered exactly
// while the public directory exists. The admin server's /ready uses it too,
// so both servers agree, including the way back to "not rendered" when the
// directory disappears.
func Ready(publicDir string) bool {
	fi, err := os.Stat(publicDir)
	return err == nil && fi.IsDir()
}

// serveHealth is liveness: the process answers, whatever the site's state.
func serveHealth(w http.ResponseWriter) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// serveReady answers 200 while the public directory exists and 503 before
// the first render or after the directory was removed.
func serveReady(w http.ResponseWriter, publicDir string) {
	if !Ready(publicDir) {
		writeError(w, http.StatusServiceUnavailable, CodeNotReady,
			"the documentation site has not been rendered yet (public directory absent)")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
