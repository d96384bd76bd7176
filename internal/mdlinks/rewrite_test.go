package mdlinks

import "testing"

func TestRewriteHTMLSourcesTouchesRawHTMLOnly(t *testing.T) {
	body := "Inline <img width=\"50%\" src=\"images/a.png\"> in text.\n\n" +
		"<p align=\"center\">\n  <img src='../b.png' alt=\"b\">\n</p>\n\n" +
		"<video poster=c.jpg src=\"clip.mp4\"></video>\n\n" +
		"```html\n<img src=\"images/in-code.png\">\n```\n\n" +
		"`<img src=\"images/in-span.png\">` and ![md](images/md.png)\n"
	got := string(RewriteHTMLSources([]byte(body), func(dest string) (string, bool) {
		if dest == "clip.mp4" {
			return "", false
		}
		return "<" + dest + ">", true
	}))
	want := "Inline <img width=\"50%\" src=\"<images/a.png>\"> in text.\n\n" +
		"<p align=\"center\">\n  <img src=\"<../b.png>\" alt=\"b\">\n</p>\n\n" +
		"<video poster=\"<c.jpg>\" src=\"clip.mp4\"></video>\n\n" +
		"```html\n<img src=\"images/in-code.png\">\n```\n\n" +
		"`<img src=\"images/in-span.png\">` and ![md](images/md.png)\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	same := []byte("No HTML here.\n")
	if out := RewriteHTMLSources(same, func(string) (string, bool) { return "x", true }); &out[0] != &same[0] {
		t.Error("a body without raw HTML sources was copied")
	}
}

func TestFindReadsEverySourceOfATagAcrossLines(t *testing.T) {
	body := "<p>\n<video poster=\"still.jpg\"\n  src=\"clip.mp4\"></video>\n</p>\n"
	var got []string
	for _, l := range Find([]byte(body)) {
		got = append(got, l.Dest)
	}
	if len(got) != 2 || got[0] != "still.jpg" || got[1] != "clip.mp4" {
		t.Errorf("found %q, want still.jpg and clip.mp4", got)
	}
	out := RewriteHTMLSources([]byte(body), func(d string) (string, bool) { return "/x/" + d, true })
	if want := "<p>\n<video poster=\"/x/still.jpg\"\n  src=\"/x/clip.mp4\"></video>\n</p>\n"; string(out) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", out, want)
	}
}
