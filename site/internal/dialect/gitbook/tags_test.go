package gitbook

import (
	"reflect"
	"testing"

	"github.com/docweave/docweave/internal/mdlinks"
)

func TestConvertGitBookTags(t *testing.T) {
	body := "Intro {% hint %} inline stays.\n" +
		"{% hint style=\"danger\" %}\nStop.\n{% endhint %}\n" +
		"{% tabs %}\n{% tab title=\"Linux *x*\" %}\napt\n{% endtab %}\n{% endtabs %}\n" +
		"{% embed url=\"https://example.org/v\" %}\n" +
		"{% embed url=\"javascript:alert(1)\" %}\n" +
		"{% if user %}\n" +
		"~~~\n{% hint style=\"info\" %}\n~~~\n"
	got, dropped := convertGitBookTags([]byte(body))
	want := "Intro {% hint %} inline stays.\n" +
		"{{< hint \"danger\" >}}\nStop.\n{{< /hint >}}\n" +
		"{{< tabs >}}\n{{< tab title=`Linux *x*` >}}\napt\n{{< /tab >}}\n{{< /tabs >}}\n" +
		"{{< embed url=`https://example.org/v` >}}\n" +
		"\n" +
		"{% if user %}\n" +
		"~~~\n{% hint style=\"info\" %}\n~~~\n"
	if string(got) != want {
		t.Errorf("converted =\n%q\nwant\n%q", got, want)
	}
	if !reflect.DeepEqual(dropped, []gitbookTag{{Name: "embed", Line: 11}}) {
		t.Errorf("dropped = %v, want the embed of a non-http URL", dropped)
	}
}

func TestAContentRefWithoutItsLinkGetsOne(t *testing.T) {
	body := "{% content-ref url=\"setup (old).md\" %}\n\n{% endcontent-ref %}\n" +
		"{% content-ref url=\"a.md\" %}\n[A](a.md)\n{% endcontent-ref %}\n" +
		"after\n"
	got, _ := convertGitBookTags([]byte(body))
	want := "{{< content-ref >}}\n\n[setup (old).md](<setup (old).md>){{< /content-ref >}}\n" +
		"{{< content-ref >}}\n[A](a.md)\n{{< /content-ref >}}\n" +
		"after\n"
	if string(got) != want {
		t.Errorf("converted =\n%q\nwant\n%q", got, want)
	}
	if links := mdlinks.Find(got); len(links) != 2 || links[0].Dest != "setup (old).md" || links[0].Line != 3 {
		t.Errorf("links = %+v, want the filled-in one first, on the end tag's line (3)", links)
	}
}

func TestConvertGitBookTagsLeavesOtherPagesAlone(t *testing.T) {
	body := []byte("No tags here, only {braces}.\n")
	if got, dropped := convertGitBookTags(body); &got[0] != &body[0] || dropped != nil {
		t.Error("a page without tags was copied or changed")
	}
}

// GitBook also reads a block's tag with text beside it on the same line:
// an opening tag followed by the block's first words, an end tag after
// its last ones, a caption after an embed. Converting only the tags on
// lines of their own left an end tag without its opening one, which Hugo
// refuses ("got closing shortcode, but none is open").
func TestConvertGitBookTagsWithTextOnTheTagLine(t *testing.T) {
	body := "{% hint style=\"warning\" %}Mind the gap between\n" +
		"train and platform.{% endhint %}\n" +
		"{% hint style=\"success\" %}All aboard.{% endhint %}\n" +
		"{% tab title=\"One\" %}{% endtab %}\n" +
		"{% embed url=\"https://example.org/a%20b\" %} A short film about trains\n" +
		"{% endembed %}\n" +
		"Talk of {% hint %} in a sentence stays.\n" +
		"{% include \"x\" %}Kept words\n" +
		"```\n{% hint style=\"info\" %}In code\n```\n" +
		"    -  {% include \"indented.html\" %}\n" +
		"    {% hint style=\"info\" %}Indented code\n" +
		"Opening at the end {% hint style=\"info\" %}\n"
	got, dropped := convertGitBookTags([]byte(body))
	want := "{{< hint \"warning\" >}}Mind the gap between\n" +
		"train and platform.{{< /hint >}}\n" +
		"{{< hint \"tip\" >}}All aboard.{{< /hint >}}\n" +
		"{{< tab title=`One` >}}{{< /tab >}}\n" +
		"{{< embed url=`https://example.org/a%20b` >}} A short film about trains\n" +
		"\n" +
		"Talk of {% hint %} in a sentence stays.\n" +
		"Kept words\n" +
		"```\n{% hint style=\"info\" %}In code\n```\n" +
		"    -  {% include \"indented.html\" %}\n" +
		"    {% hint style=\"info\" %}Indented code\n" +
		"Opening at the end {% hint style=\"info\" %}\n"
	if string(got) != want {
		t.Errorf("converted =\n%q\nwant\n%q", got, want)
	}
	if !reflect.DeepEqual(dropped, []gitbookTag{{Name: "include", Line: 8}}) {
		t.Errorf("dropped = %v, want the include on line 8", dropped)
	}
}

// GitBook reads a block opened and closed on one line anywhere in it, and
// an embed anywhere; a lone tag in a sentence, or one in a code span, is
// talk about the tag.
func TestGitBookTagsInTheMiddleOfALine(t *testing.T) {
	body := "Before you start, {% hint style=\"warning\" %}stop the service{% endhint %} and wait.\n" +
		"Watch {% embed url=\"https://video.example.org/w/1\" %} first.\n" +
		"Write `{% hint style=\"info\" %}x{% endhint %}` to make one.\n" +
		"A template says {% include \"a\" %}b{% endinclude %} here.\n"
	got, dropped := convertGitBookTags([]byte(body))
	want := "Before you start, {{< hint \"warning\" >}}stop the service{{< /hint >}} and wait.\n" +
		"Watch {{< embed url=`https://video.example.org/w/1` >}} first.\n" +
		"Write `{% hint style=\"info\" %}x{% endhint %}` to make one.\n" +
		"A template says {% include \"a\" %}b{% endinclude %} here.\n"
	if string(got) != want {
		t.Errorf("converted =\n%q\nwant\n%q", got, want)
	}
	if dropped != nil {
		t.Errorf("dropped = %v", dropped)
	}
}

func TestGitBookFileAndAPITags(t *testing.T) {
	body := "{% file src=\"../.gitbook/assets/field guide.pdf\" %}\nThe field guide\n{% endfile %}\n" +
		"{% file src=\"x/sheet.csv\" caption=\"Rates\" %}\n" +
		"{% swagger method=\"post\" path=\"/boxes/{id}\" baseUrl=\"https://api.example.org\" summary=\"Fill a box\" %}\n" +
		"{% swagger-description %}\nPuts things in a box.\n{% endswagger-description %}\n" +
		"{% swagger-parameter in=\"path\" name=\"id\" type=\"string\" required=\"true\" %}Which box{% endswagger-parameter %}\n" +
		"{% swagger-response status=\"201: Created\" description=\"Filled\" %}\n```json\n{}\n```\n{% endswagger-response %}\n" +
		"{% endswagger %}\n" +
		"{% openapi src=\"https://api.example.org/spec.yaml\" path=\"/boxes\" method=\"get\" %}\n[spec.yaml](https://api.example.org/spec.yaml)\n{% endopenapi %}\n"
	got, dropped := convertGitBookTags([]byte(body))
	want := "{{< download >}}[field guide.pdf](<../.gitbook/assets/field guide.pdf>){{< /download >}}\nThe field guide\n\n" +
		"{{< download >}}[Rates](x/sheet.csv){{< /download >}}\n" +
		"{{< api-operation method=`post` path=`/boxes/{id}` base=`https://api.example.org` summary=`Fill a box` >}}\n" +
		"\nPuts things in a box.\n\n" +
		"{{< api-parameter name=`id` in=`path` type=`string` required=`true` >}}Which box{{< /api-parameter >}}\n" +
		"{{< api-response status=`201: Created` description=`Filled` >}}\n```json\n{}\n```\n{{< /api-response >}}\n" +
		"{{< /api-operation >}}\n" +
		"{{< api-operation method=`get` path=`/boxes` spec=`https://api.example.org/spec.yaml` >}}\n[spec.yaml](https://api.example.org/spec.yaml)\n{{< /api-operation >}}\n"
	if string(got) != want {
		t.Errorf("converted =\n%q\nwant\n%q", got, want)
	}
	if len(dropped) != 1 || dropped[0].Name != "openapi" || dropped[0].Line != 16 || dropped[0].Message == "" {
		t.Errorf("dropped = %+v, want a note on the openapi block (line 16)", dropped)
	}
}
