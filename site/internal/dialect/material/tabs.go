package material

import (
	"regexp"
	"strings"
)

// Content tabs are written as a marker line and an indented body:
//
//	=== "Linux"
//
//	    apt install tool
//
//	=== "macOS"
//
//	    brew install tool
//
// Consecutive tabs form one group ("===!" starts a new one; "===+"
// selects the tab shown first, unless the reader's remembered choice
// is another). convertTabs turns a group into the theme's tabs shortcode:
// each marker line becomes the tag(s) opening its tab, its body is
// unindented in place, and the group's closing tags end its last line
// (see tabGroup for a group ending in code). Tabs nest.

// tabMarker matches a tab's marker: its indentation, its flag and title.
var tabMarker = regexp.MustCompile(`^([ \t]*)===([+!]?)[ \t]+"(.*)"[ \t\r]*$`)

// tabClose closes a tab group.
const tabClose = "{{< /tab >}}{{< /tabs >}}"

// convertTabs converts the tab groups of lines (without their "\n").
func convertTabs(lines []string) []string {
	out := make([]string, 0, len(lines))
	var code fences
	for i := 0; i < len(lines); {
		if code.in(lines[i]) || tabMarker.FindStringSubmatch(lines[i]) == nil {
			out = append(out, lines[i])
			i++
			continue
		}
		i, out = tabGroup(lines, i, out)
	}
	return out
}

// tabGroup converts the group whose first marker is lines[i], appending
// to out; it returns the index of the first line after the group.
func tabGroup(lines []string, i int, out []string) (int, []string) {
	ind := tabMarker.FindStringSubmatch(lines[i])[1]
	for first := true; ; first = false {
		m := tabMarker.FindStringSubmatch(lines[i])
		open := "{{< tab title=" + shortcodeString(tabTitle(m[3])) + " >}}"
		if m[2] == "+" {
			open = "{{< tab title=" + shortcodeString(tabTitle(m[3])) + ` selected="true" >}}`
		}
		if first {
			open = "{{< tabs >}}" + open
		} else {
			open = "{{< /tab >}}" + open
		}
		out = append(out, ind+open)
		j := i + 1
		var body []string
		for ; j < len(lines); j++ {
			l := lines[j]
			if strings.TrimSpace(l) == "" {
				body = append(body, "")
				continue
			}
			rest, ok := strings.CutPrefix(l, ind)
			if !ok {
				break
			}
			if r, ok := strings.CutPrefix(rest, "    "); ok {
				body = append(body, ind+r)
			} else if r, ok := strings.CutPrefix(rest, "\t"); ok {
				body = append(body, ind+r)
			} else {
				break
			}
		}
		trail := 0
		for len(body) > 0 && body[len(body)-1] == "" {
			body = body[:len(body)-1]
			trail++
		}
		out = append(out, convertTabs(body)...)
		i = j - trail
		if next := j; next < len(lines) {
			if n := tabMarker.FindStringSubmatch(lines[next]); n != nil && n[1] == ind && n[2] != "!" {
				for k := 0; k < trail; k++ {
					out = append(out, "")
				}
				i = next
				continue
			}
		}
		// The closing tags end the group's last line when that is text (a
		// shortcode's inner content ends at its tag), so that the blank
		// line after the group still ends the paragraph around it. After
		// code, whose closing fence must stay alone on its line for the
		// dialects after this one, they take a blank line after the group
		// when one more blank line follows, else a line of their own (and
		// a blank line, when none followed).
		converted := out[len(out)-len(body):]
		switch {
		case !endsInCode(converted):
			out[len(out)-1] += tabClose
		case trail >= 2:
			out = append(out, ind+tabClose)
			i++
		case trail == 1:
			out[len(out)-1] += "\n" + ind + tabClose
		default:
			out[len(out)-1] += "\n" + ind + tabClose + "\n"
		}
		return i, out
	}
}

// tabTitle is a tab's title as the tab list shows it: icon and emoji
// codes in it are dropped, its Markdown emphasis kept as text.
func tabTitle(t string) string {
	t = colonCode.ReplaceAllStringFunc(t, func(string) string { return "" })
	return strings.Join(strings.Fields(t), " ")
}

// shortcodeString quotes s as a shortcode argument: Hugo reads a
// backquoted argument raw, so only a backquote itself must go.
func shortcodeString(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// endsInCode reports whether the last of lines is part of a fenced block.
func endsInCode(lines []string) bool {
	var code fences
	in := false
	for _, l := range strings.Split(strings.Join(lines, "\n"), "\n") {
		in = code.in(l)
	}
	return in
}
