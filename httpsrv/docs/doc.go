// Package docs is the daemon's docs server: it serves the rendered static
// site from <output.directory>/public the way a static host would, and
// answers /health and /ready for orchestrators.
//
// The render stage publishes a new site by renaming directories, so the
// handler resolves the public directory afresh on every request and never
// keeps a handle on it between requests; a request therefore reads either
// the whole old site or the whole new one. Files are opened through os.Root,
// so neither ".." nor a symbolic link can reach a file outside the site.
//
// The handler adds what browsers and caches need from a documentation host:
// strong ETags and Last-Modified (with 304 answers), gzip for text, the
// site's own 404 page, a placeholder while the first build runs, and
// conservative security headers. It binds no port and keeps no global
// state; the daemon owns the listener.
package docs
