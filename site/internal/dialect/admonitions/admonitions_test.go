package admonitions

import "testing"

func TestConvertAdmonitionsOfMkDocsAndDocusaurus(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"mkdocs": {
			"Intro.\n\n!!! warning \"Back up first\"\n    Copy the data.\n\n    Then upgrade.\n\nAfter.\n",
			"Intro.\n\n{{< notice \"warning\" \"Back up first\" >}}\nCopy the data.\n\nThen upgrade.\n{{< /notice >}}\n\nAfter.\n",
		},
		"mkdocs collapsible": {
			"??? note\n    Hidden.\n",
			"{{< details summary=\"Note\" >}}\nHidden.\n{{< /details >}}\n",
		},
		"docusaurus": {
			":::tip[Faster builds]\nCache it.\n:::\n\n:::danger Careful\nNo.\n:::\n",
			"{{< notice \"tip\" \"Faster builds\" >}}\nCache it.\n{{< /notice >}}\n\n{{< notice \"danger\" \"Careful\" >}}\nNo.\n{{< /notice >}}\n",
		},
		"docusaurus nested": {
			"::::note\nOuter.\n:::tip\nInner.\n:::\n::::\n",
			"{{< notice \"note\" \"\" >}}\nOuter.\n{{< notice \"tip\" \"\" >}}\nInner.\n{{< /notice >}}\n\n{{< /notice >}}\n",
		},
		"docusaurus in a list item": {
			"- `flag`\n\n    :::caution\n\n    Going away.\n    :::\n",
			"- `flag`\n\n    {{< notice \"caution\" \"\" >}}\n\n    Going away.\n    {{< /notice >}}\n",
		},
		"in code": {
			"```md\n!!! note\n    Example.\n:::tip\nx\n:::\n```\n",
			"```md\n!!! note\n    Example.\n:::tip\nx\n:::\n```\n",
		},
		"never closed": {
			":::tip\nno end\n",
			":::tip\nno end\n",
		},
	} {
		if got := string(convertAdmonitions([]byte(c.in))); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, c.want)
		}
	}
}
