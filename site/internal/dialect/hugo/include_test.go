package hugo

import (
	"strings"
	"testing"

	"github.com/gohugoio/hugo/parser/pageparser"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/theme"
)

func TestIncludesAreCheckedAgainstTheRepository(t *testing.T) {
	sizes := map[string]int64{"parts/small.md": 10, "parts/huge.md": maxIncludeBytes + 1, "code/main.go": 40}
	repo := dialect.Repo{Root: "r/v1", Page: "guide/page.md", Size: func(p string) (int64, bool) { s, ok := sizes[p]; return s, ok }}
	src := "{}\n" + `{{% include "/parts/small" %}}
{{% include "/parts/huge.md" %}}
{{< readfile file="/code/main.go" >}}
{{< readfile file="/code/missing.go" markdown="true" >}}
`
	known, err := Known(theme.FS())
	if err != nil {
		t.Fatal(err)
	}
	items, err := pageparser.ParseBytes([]byte(src), pageparser.Config{})
	if err != nil {
		t.Fatal(err)
	}
	out, notes := New(known).Convert(dialect.Page{Source: []byte(src), BodyStart: 3, Items: items, Repo: repo})
	want := `{{% include "/parts/small" %}}
` + "`{{%/* include \"/parts/huge.md\" */%}}`" + `
{{< readfile file="content/r/v1/code/main.go" lang="go" markdown="" >}}
` + "`{{</* readfile file=\"/code/missing.go\" markdown=\"true\" */>}}`" + "\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if len(notes) != 2 || notes[0].Code != model.IssueIncludeUnresolved || notes[0].Line != 2 || !strings.Contains(notes[0].Message, "over") ||
		notes[1].Line != 4 || !strings.Contains(notes[1].Message, `"/code/missing.go" names no file`) {
		t.Errorf("notes = %v", notes)
	}
}
