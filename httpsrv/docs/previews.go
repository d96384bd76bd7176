package docs

import (
	"bytes"
	"html"
	"net/http"
	"strconv"
	"strings"
)

// PreviewPrefix is the path under which the docs server serves previews:
// /previews/<id>/ is the whole site as the preview has it.
const PreviewPrefix = "/previews/"

// PreviewSite is a preview's site as the docs server serves it.
type PreviewSite struct {
	// Dir holds the preview's assembled site.
	Dir string
	// Repository, Ref and Commit name what the preview shows, for its
	// banner; Title describes it (a pull request).
	Repository, Ref, Commit, Title string
	// Untrusted is set for a fork's content.
	Untrusted bool
}

// PreviewLookup finds preview id's site; false when there is none (yet).
type PreviewLookup func(id string) (PreviewSite, bool)

// maxRewritten bounds the body a preview response may rewrite; a larger
// page is sent as it is.
const maxRewritten = 16 << 20

// servePreview serves /previews/<id>/<path>: the file <path> of the
// preview's site, with every root-relative URL of its pages and search
// index moved under /previews/<id>/ so that links stay inside the
// preview, a banner naming what it shows at the top of each page, and
// X-Robots-Tag: noindex on every answer.
//
// Preview sites are assembled with the live site's base path, so every
// unit the live site rendered is reused as it is; the prefix is added
// here, per response, instead of in every unit's pages.
func (h *handler) servePreview(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Robots-Tag", "noindex, nofollow")
	rest := strings.TrimPrefix(r.URL.Path, PreviewPrefix)
	id, sub, ok := strings.Cut(rest, "/")
	if !ok {
		if h.previews != nil {
			if _, found := h.previews(id); found {
				redirectToDirectory(w, r, r.URL.Path)
				return
			}
		}
	}
	var site PreviewSite
	found := false
	if h.previews != nil && id != "" {
		site, found = h.previews(id)
	}
	if !found {
		writeError(w, http.StatusNotFound, CodeNotFound, "no preview with this id (unknown, not built yet, expired or deleted)")
		return
	}
	prefix := PreviewPrefix + id
	inner := r.Clone(r.Context())
	inner.URL.Path, inner.URL.RawPath = "/"+sub, ""
	// The answer is rewritten: nothing of it may be compressed, ranged
	// or taken from the client's cache by the file's validators.
	for _, k := range []string{"Accept-Encoding", "Range", "If-Range", "If-None-Match", "If-Modified-Since"} {
		inner.Header.Del(k)
	}
	pw := &previewWriter{ResponseWriter: w, prefix: prefix, banner: bannerHTML(site), head: r.Method == http.MethodHead}
	sh := &handler{publicDir: site.Dir, log: h.log, cache: newMetaCache()}
	sh.serveSite(pw, inner)
	pw.finish()
}

// previewWriter rewrites a preview's answer: Location headers, and the
// bodies of HTML pages and JSON files (the search index), held back
// until finish.
type previewWriter struct {
	http.ResponseWriter
	prefix, banner string
	status         int
	buf            *bytes.Buffer
	passed         bool
	head           bool // a HEAD request: no body to rewrite, length unknown
}

func (p *previewWriter) WriteHeader(status int) {
	if p.status != 0 {
		return
	}
	p.status = status
	hdr := p.Header()
	if loc := hdr.Get("Location"); strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "//") {
		hdr.Set("Location", p.prefix+loc)
	}
	hdr.Del("ETag")
	hdr.Del("Last-Modified")
	hdr.Set("Cache-Control", "no-cache")
	ct := hdr.Get("Content-Type")
	if strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "application/json") {
		if p.head {
			hdr.Del("Content-Length") // the rewritten body's is not known
		} else {
			p.buf = &bytes.Buffer{}
			return
		}
	}
	p.ResponseWriter.WriteHeader(status)
}

func (p *previewWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.WriteHeader(http.StatusOK)
	}
	if p.buf == nil || p.passed {
		return p.ResponseWriter.Write(b)
	}
	if p.buf.Len()+len(b) > maxRewritten {
		// Too large to hold: sent as it is, from here on.
		p.passed = true
		p.Header().Del("Content-Length")
		p.ResponseWriter.WriteHeader(p.status)
		if _, err := p.ResponseWriter.Write(p.buf.Bytes()); err != nil {
			return 0, err
		}
		return p.ResponseWriter.Write(b)
	}
	return p.buf.Write(b)
}

// finish sends a held-back body, rewritten.
func (p *previewWriter) finish() {
	if p.buf == nil || p.passed {
		return
	}
	body := p.buf.Bytes()
	if strings.HasPrefix(p.Header().Get("Content-Type"), "text/html") {
		body = rewriteHTML(body, p.prefix, p.banner)
	} else {
		body = rewriteJSON(body, p.prefix)
	}
	p.Header().Set("Content-Length", strconv.Itoa(len(body)))
	p.ResponseWriter.WriteHeader(p.status)
	_, _ = p.ResponseWriter.Write(body)
}

// rewriteHTML moves the root-relative URLs of a page's attributes (href,
// src, action, content: every ="/… but protocol-relative ="//…) under
// prefix, and puts banner right after the opening body tag.
func rewriteHTML(body []byte, prefix, banner string) []byte {
	out := rootRelative(body, prefix, `="/`, `='/`)
	if i := bytes.Index(out, []byte("<body")); i >= 0 {
		if j := bytes.IndexByte(out[i:], '>'); j >= 0 {
			at := i + j + 1
			out = append(out[:at:at], append([]byte(banner), out[at:]...)...)
		}
	}
	return out
}

// rewriteJSON moves root-relative URL strings ("/…) under prefix: the
// search index's page URLs.
func rewriteJSON(body []byte, prefix string) []byte {
	return rootRelative(body, prefix, `"/`)
}

// rootRelative inserts prefix after each opener (a quote and a slash)
// not followed by another slash.
func rootRelative(body []byte, prefix string, openers ...string) []byte {
	for _, op := range openers {
		var out bytes.Buffer
		out.Grow(len(body) + len(body)/20)
		rest := body
		for {
			i := bytes.Index(rest, []byte(op))
			if i < 0 {
				out.Write(rest)
				break
			}
			end := i + len(op)
			out.Write(rest[:end-1]) // up to the quote
			if end < len(rest) && rest[end] == '/' {
				out.WriteByte('/') // protocol-relative: left alone
			} else {
				out.WriteString(prefix + "/")
			}
			rest = rest[end:]
		}
		body = out.Bytes()
	}
	return body
}

// bannerHTML is the notice at the top of every page of a preview: what it
// shows (repository, ref, commit), that it is not the live site, and a
// link to the live page. Its styles are inline, so it needs nothing of
// the theme; it wraps on narrow screens.
func bannerHTML(s PreviewSite) string {
	commit := s.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	var b strings.Builder
	b.WriteString(`<div class="dw-preview-banner" role="note" aria-label="Preview" style="position:relative;z-index:1000;display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline;padding:.5rem 1rem;background:#fff3bf;color:#2b2100;border-bottom:2px solid #b08800;font:14px/1.4 system-ui,sans-serif">`)
	b.WriteString(`<strong>Preview</strong><span>`)
	b.WriteString(html.EscapeString(s.Repository))
	b.WriteString(` at <code style="font-size:.95em">`)
	b.WriteString(html.EscapeString(s.Ref))
	b.WriteString(`</code>`)
	if commit != "" {
		b.WriteString(`, commit <code style="font-size:.95em">`)
		b.WriteString(html.EscapeString(commit))
		b.WriteString(`</code>`)
	}
	if s.Title != "" {
		b.WriteString(` (` + html.EscapeString(s.Title) + `)`)
	}
	b.WriteString(`</span>`)
	if s.Untrusted {
		b.WriteString(`<span>from a fork: rendered as untrusted content</span>`)
	}
	b.WriteString(`<span>Not the live site. <a href="/" data-dw-live style="color:#5a3e00;text-decoration:underline">Go to the live site</a></span></div>`)
	return b.String()
}
