package site

import (
	"context"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"github.com/docweave/docweave/site/theme"
)

// RenderWholeMinimal renders like RenderWhole, with the same Hugo, content
// and configuration, but with every layout of the theme replaced by a
// one-line template (title and content) and no render hooks: the floor
// that our theme's cost is measured against (docweave-bench's render rows).
// Shortcodes stay, since the content calls them.
func RenderWholeMinimal(ctx context.Context, opts Options) (Result, error) {
	minimal, err := minimalTheme(theme.FS())
	if err != nil {
		return Result{}, err
	}
	return renderWhole(ctx, opts, minimal)
}

// minimalTemplate is the one line every page is rendered with.
const minimalTemplate = "<!DOCTYPE html><title>{{ .Title }}</title>{{ .Content }}\n"

// minimalTheme copies full with its page layouts replaced by
// minimalTemplate, its data outputs (search index, unit facts) by an empty
// list, and its render hooks left out; shortcodes, the partials they call
// and assets are kept (the content needs them; unused partials cost
// nothing).
func minimalTheme(full fs.FS) (fs.FS, error) {
	out := fstest.MapFS{}
	err := fs.WalkDir(full, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch {
		case strings.HasPrefix(p, "layouts/_markup/"):
			return nil
		case strings.HasPrefix(p, "layouts/_shortcodes/"), strings.HasPrefix(p, "layouts/_partials/"), !strings.HasPrefix(p, "layouts/"):
			data, err := fs.ReadFile(full, p)
			if err != nil {
				return err
			}
			out[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		case p == "layouts/home.searchindex.json":
			out[p] = &fstest.MapFile{Data: nil, Mode: 0o644} // no search entries
		case path.Ext(p) == ".html":
			out[p] = &fstest.MapFile{Data: []byte(minimalTemplate), Mode: 0o644}
		default:
			out[p] = &fstest.MapFile{Data: []byte("[]\n"), Mode: 0o644}
		}
		return nil
	})
	return out, err
}
