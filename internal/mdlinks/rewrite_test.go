package mdlinks

import "testing"

// Every destination goldmark reads is rewritten in place, a reference
// definition once for all its uses, an angle-bracket destination inside
// its brackets, a title kept; raw HTML sources get double quotes; code
// spans and blocks are never touched.
func TestRewriteReplacesEachDestinationWhereItIsWritten(t *testing.T) {
	body := "Inline <img width=\"50%\" src=\"images/a.png\"> in text.\n\n" +
		"<p align=\"center\">\n  <img src='../b.png' alt=\"b\">\n</p>\n\n" +
		"<video poster=c.jpg src=\"clip.mp4\"></video>\n\n" +
		"```html\n<img src=\"images/in-code.png\">\n[code](images/in-code.md)\n```\n\n" +
		"`<img src=\"images/in-span.png\">` and ![md](images/md.png \"A title\") and [x](<a b.md>)\n\n" +
		"- [ref one][r] and [r] and `[not](a.md)`\n\n" +
		"[r]: guide.md 'Guide'\n"
	found := Find([]byte(body))
	got := string(Rewrite([]byte(body), found, func(l Link) (string, bool) {
		if l.Dest == "clip.mp4" {
			return "", false
		}
		return "/u/" + l.Dest, true
	}))
	want := "Inline <img width=\"50%\" src=\"/u/images/a.png\"> in text.\n\n" +
		"<p align=\"center\">\n  <img src=\"/u/../b.png\" alt=\"b\">\n</p>\n\n" +
		"<video poster=\"/u/c.jpg\" src=\"clip.mp4\"></video>\n\n" +
		"```html\n<img src=\"images/in-code.png\">\n[code](images/in-code.md)\n```\n\n" +
		"`<img src=\"images/in-span.png\">` and ![md](/u/images/md.png \"A title\") and [x](</u/a%20b.md>)\n\n" +
		"- [ref one][r] and [r] and `[not](a.md)`\n\n" +
		"[r]: /u/guide.md 'Guide'\n"
	if got != want {
		t.Errorf("Rewrite:\n got %q\nwant %q", got, want)
	}
	in := []byte(body)
	if out := Rewrite(in, found, func(Link) (string, bool) { return "", false }); &out[0] != &in[0] {
		t.Errorf("nothing to change made a new body")
	}
}

func TestFindReadsEverySourceOfATagAcrossLines(t *testing.T) {
	body := "<p>\n<video poster=\"still.jpg\"\n  src=\"clip.mp4\"></video>\n</p>\n"
	found := Find([]byte(body))
	var got []string
	for _, l := range found {
		got = append(got, l.Dest)
	}
	if len(got) != 2 || got[0] != "still.jpg" || got[1] != "clip.mp4" {
		t.Errorf("found %q, want still.jpg and clip.mp4", got)
	}
	out := Rewrite([]byte(body), found, func(l Link) (string, bool) { return "/x/" + l.Dest, true })
	if want := "<p>\n<video poster=\"/x/still.jpg\"\n  src=\"/x/clip.mp4\"></video>\n</p>\n"; string(out) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", out, want)
	}
}
