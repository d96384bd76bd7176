package admin

import (
	"bytes"
	_ "embed"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/rs/zerolog"
)

// statusRefreshSeconds is how often the page reloads itself.
const statusRefreshSeconds = 30

// maxStatusBuilds caps the builds listed on the page.
const maxStatusBuilds = 25

//go:embed status.html
var statusHTML string

// statusTemplate is parsed with html/template, which escapes every value
// for its context: repository names, URLs and error messages come from
// configuration and remote servers and are shown as text, never markup.
var statusTemplate = template.Must(template.New("status").Parse(statusHTML))

// statusCSP allows nothing but the page's own inline style: no scripts,
// no external assets, no forms, no framing.
const statusCSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// statusHandler serves GET /status.
type statusHandler struct {
	backend Backend
	log     zerolog.Logger
}

func (h statusHandler) serve(w http.ResponseWriter, _ *http.Request) {
	page := newStatusPage(h.backend.Snapshot(), time.Now())
	var buf bytes.Buffer
	if err := statusTemplate.Execute(&buf, page); err != nil {
		h.log.Error().Err(err).Msg("render status page")
		writeError(w, http.StatusInternalServerError, codeInternal, "the status page could not be rendered; see the daemon log")
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("Content-Security-Policy", statusCSP)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}
