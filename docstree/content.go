package docstree

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/gohugoio/hugo/media"
)

// pageExts are the suffixes Hugo renders as pages: its Markdown suffixes
// and Docusaurus' .mdx, the only content docweave's site reads (see
// site/internal/hugobuild's MarkdownExts).
var pageExts = func() []string {
	var out []string
	for _, s := range media.DefaultContentTypes.Markdown.Suffixes() {
		out = append(out, "."+s)
	}
	return append(out, ".mdx")
}()

// isPage reports whether a file is rendered as a page.
func isPage(name string) bool {
	return slices.Contains(pageExts, strings.ToLower(path.Ext(name)))
}

// activeExts are the suffixes browsers open as documents that can run
// script: HTML, XHTML, SVG and XML (an XML file may carry XHTML script
// elements or an XSLT stylesheet).
var activeExts = []string{".html", ".htm", ".shtml", ".xhtml", ".xht", ".svg", ".svgz", ".xml", ".xsl", ".xslt", ".mht", ".mhtml"}

// activeTypes are the media types of active documents.
var activeTypes = []string{"text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml", "text/xsl", "application/xslt+xml", "multipart/related", "message/rfc822"}

// ActiveContent says whether the file at p is a document a browser would
// run script in, judged the way the docs server picks a Content-Type: by
// its suffix, and for a suffix the system does not know, by sniffing the
// first 512 bytes (a file named "page" that starts with <html> is served
// as HTML). It returns the reason ("" for passive content). Untrusted
// repositories do not publish active content.
func ActiveContent(p string) (string, error) {
	ext := strings.ToLower(path.Ext(p))
	if slices.Contains(activeExts, ext) {
		return ext + " file", nil
	}
	if ct := mime.TypeByExtension(ext); ct != "" {
		if isActiveType(ct) {
			return ct, nil
		}
		return "", nil
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var buf [512]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	if ct := http.DetectContentType(buf[:n]); isActiveType(ct) {
		return ct + " (sniffed)", nil
	}
	return "", nil
}

func isActiveType(ct string) bool {
	mediaType, _, _ := strings.Cut(ct, ";")
	return slices.Contains(activeTypes, strings.TrimSpace(strings.ToLower(mediaType)))
}
