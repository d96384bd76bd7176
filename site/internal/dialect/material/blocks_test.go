package material

import "testing"

func TestConvertBlocksAttributesAndAnnotations(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"heading ids": {
			"## Install {: #setup }\n### Other { #other .wide }\n",
			"## Install {#setup}\n### Other {#other .wide}\n",
		},
		"block attributes and annotations": {
			"Text (1) and `(2)` and (3).\n{ .annotate }\n\n1.  First.\n",
			"Text <sup class=\"annotation-marker\">1</sup> and `(2)` and <sup class=\"annotation-marker\">3</sup>.\n\n\n1.  First.\n",
		},
		"a class line goes": {
			"Para.\n{ .grid .cards }\n",
			"Para.\n\n",
		},
		"fences": {
			"``` { .yaml .no-copy }\nkey: 1 # (1)!\n```\n\n```sh {.sh title=\"x\"}\n```\n",
			"```yaml\nkey: 1 # (1)\n```\n\n```sh {.sh title=\"x\"}\n```\n",
		},
		"admonition modifiers": {
			"!!! note annotate \"Title\"\n    Body.\n??? tip inline end\n",
			"!!! note \"Title\"\n    Body.\n??? tip\n",
		},
		"after tabs ending in code": {
			"=== \"A\"\n    ```\n    x\n    ```\n\n{ #after }\n",
			"{{< tabs >}}{{< tab title=`A` >}}\n```\nx\n```\n{{< /tab >}}{{< /tabs >}}\n\n\n",
		},
		"not attribute lists": {
			"{.app.metadata.name}\n\n{{ .Title }}\n",
			"{.app.metadata.name}\n\n{{ .Title }}\n",
		},
	} {
		if got := string(convertBlocks([]byte(c.in))); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", name, got, c.want)
		}
	}
}
