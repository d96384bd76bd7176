package material

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/model"
)

func TestConvertInline(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"mark and insert": {
			"A ==marked== and ^^inserted^^ word, a == b, `==code==`, x==y and z==w.\n==Start== of a line.",
			"A <mark>marked</mark> and ^^inserted^^ word, a == b, `==code==`, x==y and z==w.\n<mark>Start</mark> of a line.",
		},
		"buttons": {
			"[Start](start.md){ .md-button .md-button--primary } [More][ref]{: .md-button} [Plain](x.md){ target=_blank }",
			"<span class=\"md-button md-button--primary\">[Start](start.md)</span> <span class=\"md-button\">[More][ref]</span> [Plain](x.md)",
		},
		"image attributes go": {
			"![Shot](shot.png){ width=\"300\" loading=lazy }",
			"![Shot](shot.png)",
		},
		"attributes after an icon, icon after emphasis": {
			"__:smile: Goal__ :+1:{ .beat .big }",
			"__😄 Goal__ 👍",
		},
		"emoji": {
			"Nice :smile: and :+1:, not a:b:c nor :nosuchemoji: nor 10:30:00.",
			"Nice 😄 and 👍, not a:b:c nor :nosuchemoji: nor 10:30:00.",
		},
		"in code": {
			"```\n:smile: ==x==\n```\n    ```\n    :smile:\n    ```\n{{< tab title=`:smile:` >}}",
			"```\n:smile: ==x==\n```\n    ```\n    :smile:\n    ```\n{{< tab title=`:smile:` >}}",
		},
	} {
		got, notes := convertInline([]byte(c.in))
		want := strings.ReplaceAll(c.want, "^^inserted^^", "<ins>inserted</ins>")
		if string(got) != want || len(notes) != 0 {
			t.Errorf("%s:\n got %q %v\nwant %q", name, got, notes, want)
		}
	}
}

func TestIconsAreInlineSVG(t *testing.T) {
	got, notes := convertInline([]byte("Line one.\n:material-check: Done [:fontawesome-brands-github:](https://example.org) :octicons-nope-16:"))
	s := string(got)
	if !strings.Contains(s, `<span class="twemoji"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="icon" aria-hidden="true" focusable="false"><path`) {
		t.Errorf("decorative icon: %s", s)
	}
	if !strings.Contains(s, `[<span class="twemoji"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" class="icon" role="img" aria-label="github" focusable="false">`) {
		t.Errorf("icon alone in a link has no name: %s", s)
	}
	if !strings.Contains(s, `<span class="icon-unknown" role="img" aria-label="nope" title="nope"></span>`) || strings.Contains(s, ":octicons-nope-16:") {
		t.Errorf("unknown icon: %s", s)
	}
	if len(notes) != 1 || notes[0].Code != model.IssueIconUnknown || notes[0].Line != 2 || !strings.Contains(notes[0].Message, ":octicons-nope-16:") {
		t.Errorf("notes = %+v, want one ICON_UNKNOWN on line 2", notes)
	}
}
