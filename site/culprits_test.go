package site

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gohugoio/hugo/common/herrors"
	"github.com/gohugoio/hugo/common/text"

	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/pages"
)

func testFinder(t *testing.T) (*pageFinder, hugobuild.Layout) {
	l := hugobuild.NewLayout("/p", "/out")
	tree := pages.Tree{Markdown: []string{"r/a.md", "r/My Page.md", "r/sub/README.md", "r/b.md"}}
	scan := hugobuild.ContentScan{IndexFiles: map[string]string{"r/sub": "r/sub/README.md"}}
	return newPageFinder(l, tree, scan), l
}

func TestCulpritsFromFileErrors(t *testing.T) {
	f, _ := testFinder(t)
	fe := herrors.NewFileErrorFromName(errors.New("boom"), "/p/content/r/a.md")
	fe = fe.UpdatePosition(text.Position{Filename: "/p/content/r/a.md", LineNumber: 3})
	err := fmt.Errorf("assemble: %w", fe)
	got := f.culprits(err, nil)
	if _, ok := got["r/a.md"]; !ok || len(got) != 1 {
		t.Errorf("culprits = %v, want r/a.md", got)
	}
}

func TestCulpritsFromLoggedMessages(t *testing.T) {
	f, _ := testFinder(t)
	logged := []string{
		`Param "x" not found: "/p/content/r/My Page.md:3:1"`,
		`failed: "/p/.docweave/pages/r/b.md:1:1": bad`,
		`error calling Fragments: asciidoctor not found, cannot render "docs/r/sub/_index.md"`,
		`theme bug in "/p/.docweave/themes/docweave/layouts/page.html:3:1"`,
	}
	got := f.culprits(errors.New("logged 4 error(s)"), logged)
	want := []string{"r/My Page.md", "r/b.md", "r/sub/README.md"}
	if keys := sortedKeys(got); !reflect.DeepEqual(keys, want) {
		t.Errorf("culprits = %v, want %v", keys, want)
	}
	if got["r/b.md"] != logged[1] {
		t.Errorf("message of r/b.md = %q, want the one naming it", got["r/b.md"])
	}
}

func TestCulpritsFromPagePathsOnlyWhenNoFileIsNamed(t *testing.T) {
	f, _ := testFinder(t)
	got := f.culprits(errors.New(`render of "/docs/r/my-page" failed: "/p/.docweave/themes/docweave/layouts/page.html:4:2": executing failed`), nil)
	if keys := sortedKeys(got); !reflect.DeepEqual(keys, []string{"r/My Page.md"}) {
		t.Errorf("culprits = %v", keys)
	}
	got = f.culprits(errors.New(`render of "/docs/r/sub" failed: cannot render "docs/r/a.md"`), nil)
	if keys := sortedKeys(got); !reflect.DeepEqual(keys, []string{"r/a.md"}) {
		t.Errorf("culprits = %v, want only the file named", keys)
	}
	if got := f.culprits(errors.New("template: page.html:1: function nosuch not defined"), nil); len(got) != 0 {
		t.Errorf("culprits of a theme error = %v, want none", got)
	}
}

func TestShortenHugoMessage(t *testing.T) {
	l := hugobuild.NewLayout("/p", "/out")
	got := shortenHugoMessage(`"/p/content/r/a.md:3:1":   bad   thing`, l)
	if got != `"r/a.md:3:1": bad thing` {
		t.Errorf("shortened = %q", got)
	}
	long := shortenHugoMessage(fmt.Sprintf("%0500d cause", 0), l)
	if len(long) > 420 || long[len(long)-5:] != "cause" {
		t.Errorf("long message = %d chars ending %q, want about 400 keeping the end", len(long), long[len(long)-10:])
	}
}
