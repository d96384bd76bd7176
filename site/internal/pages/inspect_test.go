package pages

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/dialect/hugo"
	"github.com/docweave/docweave/site/internal/model"
)

// testShortcodes is Hugo's set plus a theme with one shortcode that takes
// content ("hint") and one that does not ("badge").
func testShortcodes(t *testing.T) []dialect.Dialect {
	t.Helper()
	known, err := hugo.Known(fstest.MapFS{
		"layouts/_shortcodes/hint.html":  {Data: []byte(`<div>{{ .Inner }}</div>`)},
		"layouts/_shortcodes/badge.html": {Data: []byte(`<span>{{ .Get 0 }}</span>`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return dialects(known)
}

func TestInspectPageLeavesOrdinaryPagesAlone(t *testing.T) {
	known := testShortcodes(t)
	for name, src := range map[string]string{
		"plain":           "# Title\n\nText with {braces} and {{ not a shortcode }}.\n",
		"known":           "# T\n\n{{< hint >}}x{{< /hint >}} {{< badge new >}} {{% highlight go %}}x{{% /highlight %}}\n",
		"self-closing":    "See {{< hint />}}\n",
		"escaped":         "Write {{</* nosuch */>}} to show a tag.\n",
		"good front":      "---\ntitle: T\ntags: [a]\ndate: 2024-01-02\n---\nBody\n",
		"toml front":      "+++\ntitle = \"T\"\n+++\nBody\n",
		"liquid in prose": "Use {% if x %} in templates.\n",
	} {
		pc := inspectPage("r/p.md", []byte(src), known)
		if pc.broken || pc.rewritten != nil || len(pc.issues) > 0 {
			t.Errorf("%s: got broken=%v rewritten=%q issues=%v, want the page untouched", name, pc.broken, pc.rewritten, pc.issues)
		}
	}
}

// TestInspectPageShowsUnknownShortcodesAsWritten: outside code, an unknown
// shortcode's tags are inline code of what was written (a pair of them on
// one line keeps the text between as text); in code they are escaped alone.
func TestInspectPageShowsUnknownShortcodesAsWritten(t *testing.T) {
	src := "---\ntitle: T\n---\nBefore {{< tabpane >}}inside {{< badge x >}}{{< /tabpane >}} after {{% Nope a=\"b\" %}}.\n\n```\n{{< tabpane >}}\n```\nWrite `{{< tabpane >}}`.\n"
	pc := inspectPage("r/p.md", []byte(src), testShortcodes(t))
	want := "---\ntitle: T\n---\nBefore `{{</* tabpane */>}}`inside {{< badge x >}}`{{</* /tabpane */>}}` after `{{%/* Nope a=\"b\" */%}}`.\n\n```\n{{</* tabpane */>}}\n```\nWrite `{{</* tabpane */>}}`.\n"
	if string(pc.rewritten) != want {
		t.Errorf("rewritten =\n%q\nwant\n%q", pc.rewritten, want)
	}
	if pc.broken {
		t.Error("page marked broken")
	}
	// One issue per unknown name, with the line of its first use.
	if len(pc.issues) != 2 {
		t.Fatalf("issues = %v, want one for tabs and one for Nope", pc.issues)
	}
	for i, name := range []string{`"tabpane"`, `"Nope"`} {
		is := pc.issues[i]
		if is.Code != model.IssueUnknownShortcode || is.Path != "r/p.md" || !strings.Contains(is.Message, name) || !strings.Contains(is.Message, "line 4") {
			t.Errorf("issue %d = %v, want UNKNOWN_SHORTCODE for %s on line 4", i, is, name)
		}
	}
}

// model.Issue 15: a tag written inside code is an example of a shortcode, not a
// use of one. It is shown as written and never reported.
func TestInspectPageDoesNotReportShortcodesInsideCode(t *testing.T) {
	src := "# T\n\nUse `{{< nosuch >}}` or `` {{% other x %}} ``.\n\n```md\n{{< fenced >}}\n```\n"
	pc := inspectPage("r/p.md", []byte(src), testShortcodes(t))
	if len(pc.issues) != 0 {
		t.Errorf("issues for tags inside code: %v", pc.issues)
	}
	want := "# T\n\nUse `{{</* nosuch */>}}` or `` {{%/* other x */%}} ``.\n\n```md\n{{</* fenced */>}}\n```\n"
	if string(pc.rewritten) != want {
		t.Errorf("rewritten =\n%q\nwant\n%q", pc.rewritten, want)
	}
}

// A known shortcode written in code is an example too: a pair is not run,
// and an opening tag alone (a theme's own shortcode named in a sentence)
// is not reported as never closed.
func TestInspectPageShowsKnownShortcodesInsideCodeAsWritten(t *testing.T) {
	src := "# T\n\nWrite `{{< hint info >}}` … `{{< /hint >}}`; a lone `{{< hint >}}` is fine.\n"
	pc := inspectPage("r/p.md", []byte(src), testShortcodes(t))
	if len(pc.issues) != 0 {
		t.Errorf("issues for known tags inside code: %v", pc.issues)
	}
	want := "# T\n\nWrite `{{</* hint info */>}}` … `{{</* /hint */>}}`; a lone `{{</* hint */>}}` is fine.\n"
	if string(pc.rewritten) != want {
		t.Errorf("rewritten =\n%q\nwant\n%q", pc.rewritten, want)
	}
}

func TestInspectPageDropsTagsHugoWouldRefuse(t *testing.T) {
	src := "A {{< hint >}} never closed.\n\nB {{< /badge >}} stray, C {{< badge \"unterminated >}} quote, D {{< details >}}x{{< /nosuch >}}.\n"
	pc := inspectPage("r/p.md", []byte(src), testShortcodes(t))
	if got, want := string(pc.rewritten), "A  never closed.\n\nB  stray, C  quote, D x.\n"; got != want {
		t.Errorf("rewritten = %q, want %q", got, want)
	}
	var messages []string
	for _, is := range pc.issues {
		if is.Code != model.IssueShortcodeInvalid {
			t.Errorf("issue %v, want %s", is, model.IssueShortcodeInvalid)
		}
		messages = append(messages, is.Message)
	}
	all := strings.Join(messages, "\n")
	for _, want := range []string{"line 3: closing tag for shortcode 'badge' does not match start tag", "line 3: unterminated quoted string", "'nosuch' does not match start tag", `line 1: shortcode "hint" takes content but is never closed`} {
		if !strings.Contains(all, want) {
			t.Errorf("issues lack %q:\n%s", want, all)
		}
	}
	if pc.broken {
		t.Error("a repairable page was left out")
	}
}

func TestInspectPageReadsAPageThatStartsLikeFrontMatter(t *testing.T) {
	known := testShortcodes(t)
	for name, c := range map[string]struct{ src, want, issue string }{
		"shortcode first": {"{{< hint >}}x{{< /hint >}}\n", "{}\n{{< hint >}}x{{< /hint >}}\n", ""},
		"list first":      {"- one\n- two\n", "{}\n- one\n- two\n", ""},
		"unclosed yaml":   {"---\ntitle: T\n\nBody {{< nosuch >}}\n", "{}\n---\ntitle: T\n\nBody `{{</* nosuch */>}}`\n", "front matter cannot be read"},
	} {
		pc := inspectPage("r/p.md", []byte(c.src), known)
		if string(pc.rewritten) != c.want || pc.broken {
			t.Errorf("%s: rewritten = %q (broken %v), want %q", name, pc.rewritten, pc.broken, c.want)
		}
		if c.issue != "" && (len(pc.issues) == 0 || !strings.Contains(pc.issues[0].Message, c.issue)) {
			t.Errorf("%s: issues = %v, want one saying %q", name, pc.issues, c.issue)
		}
		for _, is := range pc.issues {
			if is.Code == model.IssueUnknownShortcode && !strings.Contains(is.Message, "line 4") {
				t.Errorf("%s: line numbers not those of the file: %v", name, is)
			}
		}
	}
}

func TestInspectPagePairsTagsByStructureAsHugoDoes(t *testing.T) {
	// Hugo closes the innermost open shortcode with the next closing tag,
	// whatever its name, so this page is valid.
	src := "Text {{< hint >}}a {{< details >}}b{{< /hint >}}c{{< /details >}}\n"
	pc := inspectPage("r/p.md", []byte(src), testShortcodes(t))
	if pc.rewritten != nil || len(pc.issues) != 0 {
		t.Errorf("valid nesting changed: %q %v", pc.rewritten, pc.issues)
	}
}

func TestInspectPageShowsATagHugoCannotLexAsText(t *testing.T) {
	pc := inspectPage("r/p.md", []byte("# T\n\n{{< badge \"unterminated\n"), testShortcodes(t))
	if pc.broken || len(pc.issues) != 1 || pc.issues[0].Code != model.IssueShownAsText || !strings.Contains(pc.issues[0].Message, "line 3") ||
		!strings.Contains(pc.issues[0].Message, `{{< badge \"unterminated`) {
		t.Errorf("got broken=%v issues=%v, want the page kept with a CONSTRUCT_SHOWN_AS_TEXT naming line 3 and the tag", pc.broken, pc.issues)
	}
	if want := "# T\n\n{{" + zeroWidthSpace + "< badge \"unterminated\n"; string(pc.rewritten) != want {
		t.Errorf("rewritten = %q, want %q", pc.rewritten, want)
	}
}

func TestInspectPageReplacesFrontMatterItCannotUse(t *testing.T) {
	known := testShortcodes(t)
	pc := inspectPage("r/p.md", []byte("---\ntitle: [unclosed\n---\n---\n\nBody\n"), known)
	if got := string(pc.rewritten); got != "{}\n---\n\nBody\n" {
		t.Errorf("invalid YAML: rewritten = %q, want empty JSON front matter before the body", got)
	}
	if len(pc.issues) != 1 || pc.issues[0].Code != model.IssueFrontMatterInvalid || !strings.Contains(pc.issues[0].Message, "YAML") {
		t.Errorf("issues = %v", pc.issues)
	}

	pc = inspectPage("r/p.md", []byte("---\ntitle: T\nurl: /\ndate: someday\n---\nBody\n"), known)
	if got := string(pc.rewritten); got != "{\"title\":\"T\"}\nBody\n" {
		t.Errorf("bad keys: rewritten = %q", got)
	}
	// url is not a problem of the page: it becomes a redirect (aliases.go).
	if len(pc.issues) != 1 || !strings.Contains(pc.issues[0].Message, "date") {
		t.Errorf("issues = %v, want one for date", pc.issues)
	}
	if len(pc.redirects) != 1 || pc.redirects[0] != "/" {
		t.Errorf("redirects = %q, want the url", pc.redirects)
	}
}

func TestInspectPageConvertsGitBookTagsOutsideCode(t *testing.T) {
	src := "# T\n\n{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n\n```\n{% hint style=\"info\" %}\n```\n{% stepper %}\nx\n{% endstepper %}\n"
	pc := inspectPage("r/p.md", []byte(src), testShortcodes(t))
	want := "# T\n\n{{< hint \"warning\" >}}\nCareful.\n{{< /hint >}}\n\n```\n{% hint style=\"info\" %}\n```\n\nx\n\n"
	if string(pc.rewritten) != want {
		t.Errorf("rewritten =\n%q\nwant\n%q", pc.rewritten, want)
	}
	if len(pc.issues) != 2 || !strings.Contains(pc.issues[0].Message, `"stepper"`) || !strings.Contains(pc.issues[0].Message, "line 10") {
		t.Errorf("issues = %v, want the two stepper tags, the first on line 10", pc.issues)
	}
}

// A conversion on a page's first line must not make its start look like
// front matter: "{{< notice >}}" there is read by Hugo as JSON front
// matter, and the page was left out.
func TestInspectPageKeepsAConvertedFirstLineOutOfFrontMatter(t *testing.T) {
	for name, src := range map[string]string{
		"mkdocs":     "!!! tip \"Before you start\"\n    Fill the kettle.\n\nThen wait.\n",
		"docusaurus": ":::note\nKettles whistle.\n:::\n",
		"gitbook":    "{% hint style=\"info\" %}Water boils at sea level.\n{% endhint %}\n",
	} {
		pc := inspectPage("r/p.md", []byte(src), testShortcodes(t))
		if !strings.HasPrefix(string(pc.rewritten), emptyFrontMatter+"{{< ") {
			t.Errorf("%s: rewritten =\n%q\nwant an empty front matter before the converted first line", name, pc.rewritten)
			continue
		}
		fm, start, ok := splitFrontMatter(pc.rewritten)
		if !ok || len(fm) != 0 || !strings.HasPrefix(string(pc.rewritten[start:]), "{{< ") {
			t.Errorf("%s: Hugo does not read the body as the converted page: %v %d %v", name, fm, start, ok)
		}
	}
}
