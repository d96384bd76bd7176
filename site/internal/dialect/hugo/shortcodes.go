// Package hugo is the dialect of pages written for other Hugo sites: their
// shortcode tags, checked against the shortcodes docweave's theme and
// Hugo define, so that Hugo never stops a build on one.
package hugo

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// hugoShortcodes are the shortcodes built into Hugo v0.165 that render
// without the network or an error, each with whether its template reads
// .Inner (Hugo then requires a closing tag or a self-closing "/>}}").
var hugoShortcodes = map[string]bool{
	"comment": true, "details": true, "highlight": true, "qr": true,
	"figure": false, "instagram": false, "param": false, "ref": false,
	"relref": false, "vimeo": false, "vimeo_simple": false, "x": false,
	"x_simple": false, "youtube": false,
}

// removedHugoShortcodes are built into Hugo only to stop the build with a
// "removed in v0.1xx" error. Older documentation still uses them, so they
// are treated as unknown: dropped and reported instead of failing the page.
var removedHugoShortcodes = []string{"gist", "twitter", "twitter_simple", "instagram_simple"}

// Set maps the lower-cased names of the shortcodes a page may use
// (Hugo looks names up without regard to case) to whether their template
// reads .Inner.
type Set map[string]bool

func (s Set) has(name string) bool {
	_, ok := s[strings.ToLower(name)]
	return ok
}

func (s Set) needsInner(name string) bool { return s[strings.ToLower(name)] }

// Known returns the shortcodes a page may use: Hugo's working
// built-in ones and every template under the theme's layouts/_shortcodes.
func Known(themeFS fs.FS) (Set, error) {
	known := Set{}
	for name, inner := range hugoShortcodes {
		known[name] = inner
	}
	err := fs.WalkDir(themeFS, "layouts/_shortcodes", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(themeFS, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, "layouts/_shortcodes/")
		// "hint.html" and "hint.searchindex.json" both define "hint".
		name, _, _ := strings.Cut(path.Base(rel), ".")
		key := strings.ToLower(path.Join(path.Dir(rel), name))
		known[key] = known[key] || strings.Contains(string(data), ".Inner")
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list the theme's shortcodes: %w", err)
	}
	return known, nil
}
