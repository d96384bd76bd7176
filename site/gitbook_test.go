package site

import (
	"reflect"
	"testing"
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
	if links := findLinks(got); len(links) != 2 || links[0].dest != "setup (old).md" || links[0].line != 3 {
		t.Errorf("links = %+v, want the filled-in one first, on the end tag's line (3)", links)
	}
}

func TestConvertGitBookTagsLeavesOtherPagesAlone(t *testing.T) {
	body := []byte("No tags here, only {braces}.\n")
	if got, dropped := convertGitBookTags(body); &got[0] != &body[0] || dropped != nil {
		t.Error("a page without tags was copied or changed")
	}
}

func TestFencedRanges(t *testing.T) {
	text := "a\n```go\nx\n```\nb\n````\n```\ny\n````\n~~~\nopen"
	got := fencedRanges([]byte(text))
	want := [][2]int{{2, 14}, {16, 32}, {32, len(text)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fencedRanges = %v, want %v", got, want)
	}
}
