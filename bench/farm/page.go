package farm

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
)

// page writes page p of repo: front matter with tags, headings, prose with
// inline markup, code blocks, a table, an image, links to sibling pages
// (file-relative, the way people write them in a repository) and links to
// external sites. External targets repeat across pages the way real
// documentation cites the same few references, so a link verifier sees a
// realistic ratio of links to distinct targets.
func page(repo string, p, pages int, linkBases []string) string {
	section := Sections[p%len(Sections)]
	next := (p + 1) % pages
	prev := (p + pages - 1) % pages
	base := func(i int) string { return strings.TrimRight(linkBases[i%len(linkBases)], "/") }
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: \"%s %s page %d\"\ndescription: \"Part %d of the %s documentation\"\ntags: [%s, %s, t%d]\ncategories: [%s]\nweight: %d\n---\n\n",
		repo, section, p, p, repo, section, repo, p%7, section, p)
	fmt.Fprintf(&b, "This page documents part %d of %s. ", p, repo)
	b.WriteString("It has several paragraphs of prose so that rendering does real work, ")
	b.WriteString("with *emphasis*, **strong text**, `inline code` and a ")
	fmt.Fprintf(&b, "[link to the next page](../%s/page%03d.md) and one [back](../%s/page%03d.md#step-2).\n\n",
		Sections[next%len(Sections)], next, Sections[prev%len(Sections)], prev)
	fmt.Fprintf(&b, "![How the parts of %s connect](../images/flow.png)\n\n", repo)
	for h := 1; h <= 3; h++ {
		fmt.Fprintf(&b, "## Step %d\n\nDo the thing number %d. The [specification](%s/specs/%s/%d) explains why; ", h, h, base(p+h), section, h)
		fmt.Fprintf(&b, "the [project site](%s/projects/%s) has the background.\n\n", base(p), repo)
		fmt.Fprintf(&b, "```go\nfunc step%d() error {\n\t// %s, part %d\n\treturn nil\n}\n```\n\n", h, repo, p)
		b.WriteString("1. Prepare the input.\n2. Run the step.\n3. Check the result against the table below.\n\n")
	}
	b.WriteString("### Options\n\n| Option | Default | Meaning |\n|---|---|---|\n")
	for r := 0; r < 5; r++ {
		fmt.Fprintf(&b, "| `opt%d` | %d | what option %d does |\n", r, r*10, r)
	}
	b.WriteString("\n![The parts](../images/parts.png)\n\n")
	b.WriteString("> **Note:** pages link to each other and to external sites; both kinds are verified.\n")
	return b.String()
}

// diagramPNG draws a small deterministic image, so pages have real images
// to publish and link verification has image targets to check.
func diagramPNG(repo string, variant int) []byte {
	const w, h = 64, 32
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := len(repo)*31 + variant*97
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{R: uint8(x*4 + seed), G: uint8(y*8 + seed), B: uint8(seed * 3), A: 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img) // encoding to memory cannot fail
	return buf.Bytes()
}
