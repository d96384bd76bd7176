package docusaurus

import (
	"strings"
	"testing"
)

func TestConvertMDX(t *testing.T) {
	for name, c := range map[string]struct {
		in, want string
		notes    int
	}{
		"imports and exports go, lines kept": {
			"import Tabs from '@theme/Tabs';\nimport {\n  Thing,\n} from \"./thing\";\n\nexport const Pill = ({children}) => (\n  <b>{children}</b>\n);\n\nText that says import this.\n",
			"\n\n\n\n\n\n\n\n\nText that says import this.\n", 0,
		},
		"code outside fences stays": {
			"{{< highlight go >}}\npackage main\n\nimport \"fmt\"\n\nimport os\n\nimport \"./side.css\";\n{{< /highlight >}}\n",
			"{{< highlight go >}}\npackage main\n\nimport \"fmt\"\n\nimport os\n\n\n{{< /highlight >}}\n", 0,
		},
		"tabs with labels, group and a value without label": {
			"<Tabs groupId=\"shell\">\n<TabItem value=\"bash\" label=\"Bash\" default>\n\nrun\n\n</TabItem>\n<TabItem value=\"pwsh\">\n\nRun\n\n</TabItem>\n</Tabs>\n",
			"{{< tabs group=`shell` >}}\n{{< tab title=`Bash` >}}\n\nrun\n\n{{< /tab >}}\n{{< tab title=`pwsh` >}}\n\nRun\n\n{{< /tab >}}\n{{< /tabs >}}\n", 0,
		},
		"labels from the values list": {
			"<Tabs defaultValue=\"a\" values={[\n",
			"<Tabs defaultValue=\"a\" values={[\n", 0,
		},
		"labels from a one-line values list": {
			"<Tabs values={[{label: 'Yarn', value: 'y'}, {value: \"n\", label: \"npm\"}]}>\n<TabItem value=\"n\">\nx\n</TabItem>\n</Tabs>\n",
			"{{< tabs >}}\n{{< tab title=`npm` >}}\nx\n{{< /tab >}}\n{{< /tabs >}}\n", 0,
		},
		"details with summary": {
			"<details>\n<summary>More <code>info</code></summary>\n\nHidden **text**.\n\n</details>\n<details><summary>Short</summary>\nx\n</details>\n",
			"\n{{< details summary=\"More info\" >}}\n\nHidden **text**.\n\n{{< /details >}}\n{{< details summary=\"Short\" >}}\nx\n{{< /details >}}\n", 0,
		},
		"details without a summary": {
			"<details>\n\n```js\nx()\n```\n\n</details>\n",
			"{{< details summary=\"Details\" >}}\n\n```js\nx()\n```\n\n{{< /details >}}\n", 0,
		},
		"unknown components dropped with a note": {
			"<DocCardList />\n\nSee <Pill kind=\"x\" /> here and `<Keep />` in code.\n<Wrapper>\nKept.\n</Wrapper>\n",
			"\n\nSee  here and `<Keep />` in code.\n\nKept.\n\n", 3,
		},
		"admonition component": {
			"<Admonition type=\"TIP\" title=\"Hey\">\nx\n</Admonition>\n",
			"{{< notice \"tip\" \"Hey\" >}}\nx\n{{< /notice >}}\n", 0,
		},
		"in code and comments": {
			"{/* hidden */}\n```jsx\nimport X from 'y';\n<Tabs>\n```\n",
			"\n```jsx\nimport X from 'y';\n<Tabs>\n```\n", 0,
		},
		"left open": {
			"<Tabs>\n<TabItem value=\"a\">\nx\n",
			"{{< tabs >}}\n{{< tab title=`a` >}}\nx\n{{< /tab >}}\n{{< /tabs >}}\n", 0,
		},
		"a summary without its details stays": {
			"<p><details>\n<summary>Example</summary>\n\nx\n</details>\n",
			"<p><details>\n<summary>Example</summary>\n\nx\n</details>\n", 0,
		},
	} {
		got, notes := convertMDX([]byte(c.in))
		if string(got) != c.want || len(notes) != c.notes {
			t.Errorf("%s:\n got %q (%d notes: %v)\nwant %q (%d notes)", name, got, len(notes), notes, c.want, c.notes)
		}
		if name != "left open" && strings.Count(string(got), "\n") != strings.Count(c.in, "\n") {
			t.Errorf("%s: line count changed", name)
		}
	}
}
