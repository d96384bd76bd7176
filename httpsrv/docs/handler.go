package docs

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/logging"
)

// NotFoundPage is the site file served, with status 404, for missing pages.
const NotFoundPage = "404.html"

// Options configure the docs server handler.
type Options struct {
	// PublicDir is <output.directory>/public, the directory the render stage
	// swaps each new site into; required. It need not exist yet.
	PublicDir string
	// Log receives the access log and refused requests.
	Log zerolog.Logger
	// Previews finds the previews served under /previews/<id>/; nil
	// when previews are off (then /previews/ is a path of the site).
	Previews PreviewLookup
}

// handler serves one site directory; see New.
type handler struct {
	publicDir string
	log       zerolog.Logger
	cache     *metaCache
	redirects redirectCache
	previews  PreviewLookup
}

// New returns the handler of the docs server:
//
//	GET /health   liveness, always 200 {"status":"ok"}
//	GET /ready    200 while PublicDir exists, else 503 (the spec's readiness)
//	GET /...      the site: /, /docs/*, /search/index.json and every other
//	              file; a 301 for each URL of the site's redirect map
//	              (RedirectsFile); a 503 HTML placeholder while PublicDir
//	              does not exist
//	GET /previews/<id>/...  a preview's site (Options.Previews), noindex
//
// HEAD is accepted wherever GET is; other methods get 405. New panics when
// PublicDir is empty, a wiring mistake no request could recover from.
func New(opts Options) http.Handler {
	if strings.TrimSpace(opts.PublicDir) == "" {
		panic("docs.New: Options.PublicDir is empty; expected <output.directory>/public")
	}
	dir := opts.PublicDir
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	h := &handler{publicDir: dir, log: opts.Log, cache: newMetaCache(), previews: opts.Previews}
	return withAccessLog(opts.Log, h)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			fmt.Sprintf("method %s is not allowed on the docs server; expected GET or HEAD", r.Method))
		return
	}
	switch r.URL.Path {
	case "/health":
		serveHealth(w)
	case "/ready":
		serveReady(w, h.publicDir)
	default:
		if h.previews != nil && strings.HasPrefix(r.URL.Path, PreviewPrefix) {
			h.servePreview(w, r)
			return
		}
		h.serveSite(w, r)
	}
}

// maxSiteAttempts bounds how often one request starts again on a newer site
// after the one it opened was swapped out and removed under it.
const maxSiteAttempts = 3

// serveSite serves one file of the current site, opening the public
// directory afresh so a swapped-in site is used at once.
func (h *handler) serveSite(w http.ResponseWriter, r *http.Request) {
	for attempt := 1; ; attempt++ {
		root, err := openSite(h.publicDir)
		if errors.Is(err, fs.ErrNotExist) {
			servePlaceholder(w, r)
			return
		}
		if err != nil {
			h.log.Error().Err(err).Str(logging.FieldServer, ServerName).Msg("open public directory")
			writeError(w, http.StatusInternalServerError, CodeInternal, "the site directory could not be opened")
			return
		}
		if target := h.redirects.mapOf(root).redirectTarget(r); target != "" {
			root.Close()
			redirectPermanently(w, target)
			return
		}
		found := lookup(root, r.URL.Path, wantsMarkdown(r.Header.Get("Accept")))
		if found.missing != nil && attempt < maxSiteAttempts && siteReplaced(root, h.publicDir) {
			// The site this request opened was swapped out and is being
			// deleted: what is missing may exist in the new one.
			root.Close()
			continue
		}
		h.serveLookup(w, r, root, found)
		if found.file != nil {
			found.file.Close()
		}
		root.Close()
		return
	}
}

// serveLookup answers with the outcome of lookup.
func (h *handler) serveLookup(w http.ResponseWriter, r *http.Request, root *os.Root, found lookupResult) {
	switch {
	case found.redirect:
		redirectToDirectory(w, r, found.name)
	case found.missing != nil:
		if !errors.Is(found.missing, fs.ErrNotExist) {
			// Not "missing" but refused: a name escaping the site or an
			// unreadable file. The client learns only "not found".
			h.log.Warn().Err(found.missing).Str(logging.FieldServer, ServerName).Str("path", r.URL.Path).
				Msg("refused to serve a path")
		}
		h.serveNotFound(w, r, root)
	case found.name == RedirectsFile:
		h.serveNotFound(w, r, root) // the host's configuration, not a page
	default:
		h.serveFile(w, r, found.name, found.file, found.info, http.StatusOK)
	}
}

// redirectToDirectory sends /docs/x to /docs/x/ as static hosts do, so
// relative links inside the index page resolve. The location is built from
// the cleaned name, never from the raw path, so it cannot point off-site.
func redirectToDirectory(w http.ResponseWriter, r *http.Request, name string) {
	target := (&url.URL{Path: "/" + name + "/"}).EscapedPath()
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", target)
	w.Header().Set("Cache-Control", CacheDocument)
	w.WriteHeader(http.StatusMovedPermanently)
}

// serveNotFound serves the site's 404 page with status 404, or a JSON error
// when the site has none.
func (h *handler) serveNotFound(w http.ResponseWriter, r *http.Request, root *os.Root) {
	f, fi, err := openFile(root, NotFoundPage)
	if err != nil || fi.IsDir() {
		writeError(w, http.StatusNotFound, CodeNotFound, "no page at "+r.URL.Path)
		return
	}
	defer f.Close()
	h.serveFile(w, r, NotFoundPage, f, fi, http.StatusNotFound)
}
