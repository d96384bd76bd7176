package docs

import (
	"net/http"
	"strconv"
)

// PlaceholderRetryAfter is the Retry-After (seconds) of the placeholder page;
// the page also refreshes itself after this long, so a reader who opened the
// site during the first build sees it appear without doing anything.
const PlaceholderRetryAfter = 10

// placeholderHTML is the page served with 503 while no site is rendered.
var placeholderHTML = []byte(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="` + strconv.Itoa(PlaceholderRetryAfter) + `">
<title>Documentation is being prepared</title>
</head>
<body>
<h1>Documentation is being prepared</h1>
<p>The documentation site is being built. This page reloads by itself and shows the site as soon as it is ready.</p>
</body>
</html>
`)

// servePlaceholder answers 503 with a short HTML page for any site path while
// the public directory does not exist: a bookmarked page is "not yet", not
// "not found".
func servePlaceholder(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Retry-After", strconv.Itoa(PlaceholderRetryAfter))
	h.Set("Content-Length", strconv.Itoa(len(placeholderHTML)))
	setSecurityHeaders(h)
	w.WriteHeader(http.StatusServiceUnavailable)
	if r.Method != http.MethodHead {
		w.Write(placeholderHTML)
	}
}
