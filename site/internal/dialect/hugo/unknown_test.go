package hugo

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gohugoio/hugo/parser/pageparser"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/theme"
)

// convert runs the dialect on the body src, after an empty front matter
// (as a page starting with a tag is given one), with the theme's
// shortcodes known, and checks that no line moved.
func convert(t *testing.T, src string) (string, []dialect.Note) {
	t.Helper()
	known, err := Known(theme.FS())
	if err != nil {
		t.Fatal(err)
	}
	page := []byte("{}\n" + src)
	items, err := pageparser.ParseBytes(page, pageparser.Config{})
	if err != nil {
		t.Fatal(err)
	}
	out, notes := New(known).Convert(dialect.Page{Source: page, BodyStart: 3, Items: items})
	if got, want := bytes.Count(out, []byte("\n")), strings.Count(src, "\n"); got != want {
		t.Errorf("%d lines became %d:\n%s", want, got, out)
	}
	return string(out), notes
}

func TestUnknownPairedShortcodeBecomesALabelledCodeBlock(t *testing.T) {
	for name, c := range map[string]struct{ src, want string }{
		"code-toggle, TOML, file without extension": {
			"Set it:\n\n{{< code-toggle file=hugo >}}\n[params]\ncolour = 'teal'\n{{< /code-toggle >}}\n",
			"Set it:\n\n{{< labelled-code label=\"hugo.toml\" lang=\"toml\" >}}\n[params]\ncolour = 'teal'\n{{< /labelled-code >}}\n",
		},
		"code-toggle, YAML, named file, in a list": {
			"- Front matter:\n\n  {{< code-toggle file=content/pond.md fm=true >}}\n  title: Pond\n  draft: false\n  {{< /code-toggle >}}\n",
			"- Front matter:\n\n  {{< labelled-code label=\"content/pond.md\" lang=\"yaml\" >}}\n  title: Pond\n  draft: false\n  {{< /labelled-code >}}\n",
		},
		"code-toggle, JSON, no file": {
			"{{% code-toggle %}}\n{\"a\": 1}\n{{% /code-toggle %}}\n",
			"{{< labelled-code label=\"JSON\" lang=\"json\" >}}\n{\"a\": 1}\n{{< /labelled-code >}}\n",
		},
		"another shortcode, its tags inside shown as written": {
			"{{< recipe servings=2 >}}\nStir {{< hint >}}gently{{< /hint >}}, then {{% oven 180 %}}.\n{{< /recipe >}}\n",
			"{{< labelled-code label=\"recipe\" lang=\"\" >}}\nStir {{</* hint */>}}gently{{</* /hint */>}}, then {{%/* oven 180 */%}}.\n{{< /labelled-code >}}\n",
		},
		"an opening tag on two lines": {
			"{{< recipe\n  servings=2 >}}\nflour\n{{< /recipe >}}\n",
			"{{< labelled-code label=\"recipe\" lang=\"\" \n>}}\nflour\n{{< /labelled-code >}}\n",
		},
	} {
		got, notes := convert(t, c.src)
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, c.want)
		}
		if len(notes) != 1 || !strings.Contains(notes[0].Message, "its content is shown as a code block") {
			t.Errorf("%s: notes = %v, want one saying the content is a code block", name, notes)
		}
	}
}

func TestUnknownShortcodeTagsOutsideBlocksAreInlineCode(t *testing.T) {
	for name, c := range map[string]struct{ src, want string }{
		"single":              {"Added {{< since 2.1 >}} here.\n", "Added `{{</* since 2.1 */>}}` here.\n"},
		"pair on one line":    {"Press {{< kbd >}}Enter{{< /kbd >}}.\n", "Press `{{</* kbd */>}}`Enter`{{</* /kbd */>}}`.\n"},
		"pair inside a line":  {"A {{< mark >}}b\nc{{< /mark >}} d\n", "A `{{</* mark */>}}`b\nc`{{</* /mark */>}}` d\n"},
		"backticks in it":     {"{{< say \"`hi`\" >}}\n", "``{{</* say \"`hi`\" */>}}``\n"},
		"a link's target":     {"[source]: <{{% srcurl pond %}}>\n", "[source]: <{{%/* srcurl pond */%}}>\n"},
		"on two lines":        {"Text {{< photo\nsrc=a.png >}} more\n", "Text {{</* photo\nsrc=a.png */>}} more\n"},
		"on lines of its own": {"Text\n\n  {{< photo\n  src=a.png >}}\n", "Text\n\n  {{< labelled-code label=\"photo\" lang=\"\" >}}{{</* photo\n  src=a.png */>}}{{< /labelled-code >}}\n"},
		"known ones run":      {"{{< hint >}}x{{< /hint >}} {{< nosuch >}}\n", "{{< hint >}}x{{< /hint >}} `{{</* nosuch */>}}`\n"},
		"in code, only shown": {"`{{< nosuch >}}`\n", "`{{</* nosuch */>}}`\n"},
	} {
		wantConverted(t, name, c.src, c.want, -1)
	}
}

// wantConverted checks that the dialect makes want of src, with notes
// notes (-1: any number).
func wantConverted(t *testing.T, name, src, want string, notes int) {
	t.Helper()
	got, n := convert(t, src)
	if got != want || (notes >= 0 && len(n) != notes) {
		t.Errorf("%s:\n got %q %v\nwant %q, %d notes", name, got, n, want, notes)
	}
}

func TestNewInStandsAloneOrHoldsContent(t *testing.T) {
	for name, c := range map[string]struct{ src, want string }{
		"self-closed":           {"x {{< new-in \"0.1.0\" />}}\n", "x {{< new-in \"0.1.0\" />}}\n"},
		"never closed":          {"x {{< new-in \"0.1.0\" >}} y {{< deprecated-in v2 >}}\n", "x {{< new-in \"0.1.0\" />}} y {{< deprecated-in \"v2\" />}}\n"},
		"with content":          {"{{< new-in 1.10 >}}\nNow faster.\n{{< /new-in >}}\n", "{{< new-in \"1.10\" >}}\nNow faster.\n{{< /new-in >}}\n"},
		"alone, then with some": {"{{< new-in 1 >}}\n{{< new-in `2` >}}a{{< /new-in >}}\n", "{{< new-in \"1\" />}}\n{{< new-in `2` >}}a{{< /new-in >}}\n"},
		"version quoted":        {"x {{< deprecated-in 1.10 />}}\n", "x {{< deprecated-in \"1.10\" />}}\n"},
	} {
		wantConverted(t, name, c.src, c.want, 0)
	}
}

func TestDataLanguage(t *testing.T) {
	for body, want := range map[string]string{
		"[a]\nb = 1":       "toml",
		"key = 'v'":        "toml",
		"a:\n  b: 1":       "yaml",
		"- one\n- two":     "yaml",
		"  {\n\"a\": 1\n}": "json",
		"something else":   "toml",
	} {
		if got := dataLanguage([]byte(body)); got != want {
			t.Errorf("dataLanguage(%q) = %s, want %s", body, got, want)
		}
	}
}
