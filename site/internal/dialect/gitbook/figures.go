package gitbook

import (
	"bytes"
	"html"
	"regexp"
	"strings"

	"github.com/docweave/docweave/site/internal/mdcode"
)

// GitBook writes an image as a figure of raw HTML, on one line of its own:
//
//	<figure><img src="../.gitbook/assets/flow.png" alt=""><figcaption><p>Flow</p></figcaption></figure>
//
// Hugo passes raw HTML through as it is, so the image's relative source
// (written from the page's file, not its URL) is never resolved or
// published. convertFigures turns each such line into a Markdown image,
// whose source is resolved like any other image: its alternative text is
// the figure's (or its caption, when GitBook left the text empty, as it
// usually does), its title the caption. Lines in fenced code are kept.
// Every line keeps its number.

// figureLine matches a line holding one figure of an image: the img
// element's attributes and the caption, if any.
var figureLine = regexp.MustCompile(`(?is)^ {0,3}<figure>\s*<img\s([^>]*?)/?>\s*(?:<figcaption>(.*?)</figcaption>\s*)?</figure>\s*$`)

// htmlAttr reads one attribute of an element.
var htmlAttr = regexp.MustCompile(`(?is)([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// htmlTag matches a tag, for a caption's text.
var htmlTag = regexp.MustCompile(`<[^>]*>`)

// convertFigures converts the figures of images in body.
func convertFigures(body []byte) []byte {
	if !bytes.Contains(body, []byte("<figure")) {
		return body
	}
	inFence := mdcode.FenceTracker()
	lines := bytes.SplitAfter(body, []byte("\n"))
	var out bytes.Buffer
	for _, line := range lines {
		content := bytes.TrimRight(line, "\r\n")
		m := figureLine.FindSubmatch(content)
		if inFence(string(content)) || m == nil {
			out.Write(line)
			continue
		}
		attrs := map[string]string{}
		for _, a := range htmlAttr.FindAllSubmatch(m[1], -1) {
			attrs[strings.ToLower(string(a[1]))] = html.UnescapeString(string(a[2]) + string(a[3]))
		}
		src := attrs["src"]
		if src == "" {
			out.Write(line)
			continue
		}
		caption := strings.Join(strings.Fields(html.UnescapeString(htmlTag.ReplaceAllString(string(m[2]), " "))), " ")
		alt := attrs["alt"]
		if alt == "" {
			alt = caption
		}
		out.WriteString(markdownImage(alt, src, caption))
		out.Write(line[len(content):])
	}
	return out.Bytes()
}

// markdownImage writes ![alt](src "title") with what would break it
// escaped.
func markdownImage(alt, src, title string) string {
	alt = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(alt)
	if strings.ContainsAny(src, " ()<>") {
		src = "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(src) + ">"
	}
	if title == "" {
		return "![" + alt + "](" + src + ")"
	}
	return "![" + alt + "](" + src + ` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(title) + `")`
}
