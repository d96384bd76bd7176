package site

import (
	"sort"
	"strings"
	"testing"
)

// Issue 27: a page's images in a hidden folder of the documentation root
// (GitBook's .gitbook/assets) and in a folder outside the root were never
// published. The clone stage puts them in the tree under _files/ (by their
// repository path); a page's links lead there, and are not reported. A
// link that climbs out of the repository is reported as such, with its
// line.
func TestReferencedFilesArePublishedAndLinked(t *testing.T) {
	res, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/guide/tour.md": strings.Join([]string{
			"# Tour",
			"",
			"![the harbour](../.gitbook/assets/harbour.png)",
			"",
			"![the lighthouse](../../artwork/lighthouse.png)",
			"",
			"[the chart as a file](/artwork/chart.pdf)",
			"",
			"![the sea](../../../sea.png)",
			"",
			"![a boat as the site shows it](/pictures/boat.png)",
			"",
			`<figure><img src="../.gitbook/assets/compass.png" alt=""><figcaption><p>The compass</p></figcaption></figure>`,
			"",
			`Raw HTML: <img src="../pictures/gone.png" width="50%">`,
			"",
		}, "\n"),
		"content/gb/.gitbook/assets/harbour.png":              "png",
		"content/gb/_files/docs/_.gitbook/assets/harbour.png": "png",
		"content/gb/.gitbook/assets/compass.png":              "png",
		"content/gb/_files/docs/_.gitbook/assets/compass.png": "png",
		"content/gb/_files/artwork/lighthouse.png":            "png",
		"content/gb/_files/artwork/chart.pdf":                 "%PDF",
		"content/gb/_files/web/static/pictures/boat.png":      "png",
	}, "docs")
	page := tree["docs/gb/guide/tour/index.html"]
	for _, want := range []string{
		`src="/docs/gb/_files/docs/_.gitbook/assets/harbour.png"`,
		`src="/docs/gb/_files/artwork/lighthouse.png"`,
		`href="/docs/gb/_files/artwork/chart.pdf"`,
		`src="/docs/gb/_files/web/static/pictures/boat.png"`,
		// A GitBook figure is a Markdown image once converted.
		`src="/docs/gb/_files/docs/_.gitbook/assets/compass.png"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("tour page lacks %s", want)
		}
		file := strings.TrimPrefix(strings.Split(want, `"`)[1], "/")
		if _, ok := tree[file]; !ok {
			t.Errorf("%s is not published", file)
		}
	}
	var got []string
	for _, is := range res.Issues {
		if is.Code == IssueLinkUnresolved {
			got = append(got, is.Path+": "+is.Message)
		}
	}
	// A source in raw HTML that names nothing is reported too (in the
	// order of their text).
	want := `gb/guide/tour.md: line 15: image "../pictures/gone.png" leads to no page or file of the repository's documentation` + "\n" +
		`gb/guide/tour.md: line 9: image "../../../sea.png" leads outside the repository; nothing outside it is published, left as written`
	sort.Strings(got)
	if strings.Join(got, "\n") != want {
		t.Errorf("link issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// Issue 27: a relative source in a page's raw HTML (argo-cd's
// <img width="50%" src="images/…">) was published but left as written, so
// the browser looked for it one folder too deep, under the page's URL.
// Each such source now leads to the file's URL; one in code stays as
// written.
func TestRawHTMLSourcesLeadToTheirFiles(t *testing.T) {
	res, tree := renderOneRepository(t, "gb", map[string]string{
		"content/gb/guide/tour.md": strings.Join([]string{
			"# Tour",
			"",
			`A sketch: <img width="50%" src="images/sketch.png"> inline.`,
			"",
			`<p align="center">`,
			`  <img alt="the compass" src="../.gitbook/assets/compass.png">`,
			`</p>`,
			"",
			`<video controls poster=images/still.png src="/artwork/clip.mp4"></video>`,
			"",
			"```html",
			`<img src="images/sketch.png">`,
			"```",
			"",
		}, "\n"),
		"content/gb/guide/images/sketch.png":                  "png",
		"content/gb/guide/images/still.png":                   "png",
		"content/gb/.gitbook/assets/compass.png":              "png",
		"content/gb/_files/docs/_.gitbook/assets/compass.png": "png",
		"content/gb/_files/artwork/clip.mp4":                  "mp4",
	}, "docs")
	for _, is := range res.Issues {
		t.Errorf("unexpected issue %s %s: %s", is.Code, is.Path, is.Message)
	}
	page := tree["docs/gb/guide/tour/index.html"]
	for _, want := range []string{
		`<img width="50%" src="/docs/gb/guide/images/sketch.png">`,
		`<img alt="the compass" src="/docs/gb/_files/docs/_.gitbook/assets/compass.png">`,
		`poster="/docs/gb/guide/images/still.png" src="/docs/gb/_files/artwork/clip.mp4"`,
		`<span class="s">&#34;images/sketch.png&#34;</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("tour page lacks %s", want)
		}
		if strings.HasPrefix(want, "<") || strings.HasPrefix(want, "poster") {
			for _, part := range strings.Split(want, `"`) {
				if f := strings.TrimPrefix(part, "/"); strings.HasPrefix(part, "/docs/") {
					if _, ok := tree[f]; !ok {
						t.Errorf("%s is not published", f)
					}
				}
			}
		}
	}
	if t.Failed() {
		t.Log(page[strings.Index(page, "A sketch"):])
	}
}
