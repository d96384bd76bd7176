package gitbook

import (
	"fmt"
	"path"
	"strings"
)

// GitBook describes an API operation in two ways, both converted into the
// theme's api-operation card (its method, path and summary, then the
// block's text, a table of its parameters and its responses):
//
//	{% swagger method="get" path="/items/{id}" baseUrl="https://api.example.org" summary="Read an item" %}
//	{% swagger-description %}Text.{% endswagger-description %}
//	{% swagger-parameter in="path" name="id" type="string" required="true" %}The item's id{% endswagger-parameter %}
//	{% swagger-response status="200: OK" description="Found" %}…{% endswagger-response %}
//	{% endswagger %}
//
//	{% openapi src="https://example.org/openapi.yaml" path="/items" method="post" %}
//	[openapi.yaml](https://example.org/openapi.yaml)
//	{% endopenapi %}
//
// An openapi block names an OpenAPI description that docweave does not
// read (it may be another site's, and fetching it would make a render
// depend on the network): its card shows the operation and a link to the
// description, and the page gets an issue saying so.

// apiOperation is the card's opening shortcode for a tag's arguments.
func apiOperation(args map[string]string, spec string) string {
	line := fmt.Sprintf("{{< api-operation method=%s path=%s", shortcodeString(args["method"]), shortcodeString(args["path"]))
	for _, a := range [][2]string{{"base", args["baseUrl"]}, {"summary", args["summary"]}, {"spec", spec}} {
		if strings.TrimSpace(a[1]) != "" {
			line += fmt.Sprintf(" %s=%s", a[0], shortcodeString(a[1]))
		}
	}
	return line + " >}}"
}

// apiBlocks are the tags of API operations, joined to gitbookBlocks.
var apiBlocks = map[string]func(args map[string]string) (string, bool){
	"swagger":    func(args map[string]string) (string, bool) { return apiOperation(args, ""), true },
	"endswagger": fixed("{{< /api-operation >}}"),
	// The description is the card's text: its tags go.
	"swagger-description":    drop(true),
	"endswagger-description": drop(true),
	"swagger-parameter": func(args map[string]string) (string, bool) {
		return fmt.Sprintf("{{< api-parameter name=%s in=%s type=%s required=%s >}}", shortcodeString(args["name"]),
			shortcodeString(args["in"]), shortcodeString(args["type"]), shortcodeString(args["required"])), true
	},
	"endswagger-parameter": fixed("{{< /api-parameter >}}"),
	"swagger-response": func(args map[string]string) (string, bool) {
		return fmt.Sprintf("{{< api-response status=%s description=%s >}}", shortcodeString(args["status"]), shortcodeString(args["description"])), true
	},
	"endswagger-response": fixed("{{< /api-response >}}"),
	// An openapi block's description is not read (see above): the card
	// links to it; convertGitBookTags notes the page.
	"openapi": func(args map[string]string) (string, bool) {
		return apiOperation(args, args["src"]), true
	},
	"endopenapi": fixed("{{< /api-operation >}}"),
	// GitBook's newer form names a specification uploaded to the space.
	"openapi-operation": func(args map[string]string) (string, bool) {
		return apiOperation(args, args["spec"]), true
	},
	"endopenapi-operation": fixed("{{< /api-operation >}}"),
}

// unreadSpec is the note on an openapi block, whose description docweave
// does not read; "" for other tags.
func unreadSpec(name string, args map[string]string) string {
	if name != "openapi" && name != "openapi-operation" {
		return ""
	}
	spec := args["src"]
	if spec == "" {
		spec = args["spec"]
	}
	return fmt.Sprintf("GitBook's %s block for %s %s names the OpenAPI description %q, which docweave does not read; "+
		"the operation shows as a card with its method and path and a link to the description", name,
		strings.ToUpper(args["method"]), args["path"], spec)
}

// fileTag is GitBook's file block: a download link card to the file (its
// caption, between the tags in the newer form, stays as text beside it).
// The link resolves and the file is published like any other file a page
// links to.
func fileTag(args map[string]string) (string, bool) {
	src := strings.TrimSpace(args["src"])
	if src == "" {
		return "", false
	}
	name := strings.TrimSpace(args["caption"])
	if name == "" {
		name = path.Base(strings.SplitN(src, "?", 2)[0])
	}
	return "{{< download >}}" + markdownLink(name, src) + "{{< /download >}}", true
}
