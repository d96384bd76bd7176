package hugo

import (
	"fmt"
	"path"
	"strings"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/model"
)

// maxIncludeBytes bounds the file an include or readfile shortcode brings
// into a page: a larger one is shown as the tag, as written.
const maxIncludeBytes = 1 << 20

// pageExts are the file names Hugo's GetPage tries for a page path
// written without one, as Hugo's documentation writes its includes
// ("functions/_common/glob-patterns"), and the index files that stand
// for a folder.
var pageExts = []string{"", ".md", ".markdown", "/index.md", "/_index.md", "/README.md", "/readme.md"}

// includes checks the tags of the shortcodes that bring another file of
// the page's repository into the page, outside code:
//
//   - {{% include "path" %}} (the theme's, as in Hugo's documentation):
//     a page found relative to the page or to the repository's root is
//     left to the theme's template, which renders it in place;
//   - {{< readfile file="path" >}} (and "path" as first argument): the
//     file found the same way becomes the theme's readfile tag naming it
//     from the project's root, which shows it as a code block in the
//     language of its extension, or rendered with markdown="true".
//
// A path that finds no file, one leading out of the repository, the page
// itself, or a file over maxIncludeBytes is reported, and the tag shown
// as written. It sets the form of the tags it rewrites. Without a
// repository to look in (the zero Repo) it changes nothing.
func includes(tags []shortcodeTag, repo dialect.Repo, inCode func(shortcodeTag) bool, src []byte, line func(pos int) int) []dialect.Note {
	if repo.Size == nil {
		return nil // no repository to look in: left to the theme's templates
	}
	var notes []dialect.Note
	for i, t := range tags {
		name := strings.ToLower(t.name)
		if (name != "include" && name != "readfile") || t.closing || t.inline || t.form != formCut || inCode(t) {
			continue
		}
		want := t.named["file"]
		if want == "" && t.arg0[1] > 0 {
			want = string(src[t.arg0[0]:t.arg0[1]])
		}
		alternatives := func(p string) []string { return []string{p} }
		if name == "include" {
			alternatives = func(p string) []string {
				out := make([]string, len(pageExts))
				for k, ext := range pageExts {
					out[k] = p + ext
				}
				return out
			}
		}
		found, size, ok := repo.Find(want, alternatives)
		problem := ""
		switch {
		case !ok:
			problem = "names no file of the repository"
		case size > maxIncludeBytes:
			problem = fmt.Sprintf("names %s, of %d bytes (over %d)", found, size, maxIncludeBytes)
		}
		if problem != "" {
			tags[i].form = formCode
			notes = append(notes, dialect.Note{Code: model.IssueIncludeUnresolved, Line: line(t.start), Message: fmt.Sprintf(
				"%s %q %s; the tag is shown as written", t.name, want, problem)})
			continue
		}
		if name == "readfile" {
			tags[i].form = formReplaced
			tags[i].with = fmt.Sprintf("{{< readfile file=%q lang=%q markdown=%q%s>}}", path.Join("content", repo.Root, found),
				strings.TrimPrefix(path.Ext(found), "."), t.named["markdown"], spaceKeepingLines(src[t.start:t.end]))
		}
	}
	return notes
}
