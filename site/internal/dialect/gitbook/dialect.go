package gitbook

import (
	"bytes"
	"fmt"

	"github.com/docweave/docweave/site/internal/dialect"
	"github.com/docweave/docweave/site/internal/model"
)

// Dialect converts GitBook's block tags into the theme's shortcodes, and
// its figures of images into Markdown images.
type Dialect struct{}

// Marked reports whether src may hold a GitBook tag or figure.
func (Dialect) Marked(src []byte) bool {
	return bytes.Contains(src, []byte("{%")) || bytes.Contains(src, []byte("<figure"))
}

// Convert converts the GitBook tags of the page's body (a tag without an
// equivalent is dropped, its text kept, and noted) and its figures.
func (Dialect) Convert(p dialect.Page) ([]byte, []dialect.Note) {
	body, dropped := convertGitBookTags(convertFigures(p.Body()))
	var notes []dialect.Note
	for _, tag := range dropped {
		msg := tag.Message
		if msg == "" {
			msg = fmt.Sprintf("GitBook tag %q has no equivalent in the docweave theme; the tag is dropped and the text kept", tag.Name)
		}
		notes = append(notes, dialect.Note{Code: model.IssueUnknownShortcode, Line: tag.Line, Message: msg})
	}
	return body, notes
}
