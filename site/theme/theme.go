// Package theme holds docweave's one site theme, compiled into the binary with
// go:embed so that rendering a site never needs the network or a theme
// checkout: the site package writes this tree into the Hugo project it
// renders and names it as the project's theme.
//
// The tree follows Hugo's template system (v0.146 and later):
//
//	layouts/baseof.html          page skeleton: header (title, search,
//	                             colour theme), sidebar menu, main, table
//	                             of contents
//	layouts/home.html            the site home: the list of repositories
//	layouts/page.html            one documentation page
//	layouts/section.html         a directory of a repository
//	layouts/taxonomy.html        a taxonomy's terms (/tags/)
//	layouts/term.html            a term's pages (/tags/install/)
//	layouts/list.html            any other list page
//	layouts/404.html             the not-found page
//	layouts/version-redirect.html  a versioned repository's root page,
//	                             leading to its default version
//	layouts/home.searchindex.json  the search entries the assembly writes the index from
//	layouts/_partials/           small named pieces the layouts share
//	layouts/_markup/             heading, table and alert render hooks
//	layouts/_shortcodes/         callouts other themes' pages use (hint,
//	                             notice, alert, note, tip, warning, …)
//	assets/css/docweave.css      the style sheet, light and dark
//	assets/js/docweave.js        search, colour theme switch, menus
//	assets/js/livereload.js      the live-reload client (daemon mode only)
//
// New features are meant to arrive as new partials wired into baseof.html,
// not as rewrites of the existing layouts; the version switcher
// (_partials/version-switcher.html) is one.
package theme

import (
	"embed"
	"io/fs"
)

// Name is the directory name the theme is installed under in a Hugo
// project's themes directory, and the value of Hugo's `theme` setting.
const Name = "docweave"

//go:embed all:files
var files embed.FS

// FS returns the theme tree, rooted so that "layouts/baseof.html" is a valid
// path. It is read-only and safe for concurrent use.
func FS() fs.FS {
	sub, err := fs.Sub(files, "files")
	if err != nil {
		// fs.Sub only fails on an invalid path, and "files" is a constant.
		panic("theme: " + err.Error())
	}
	return sub
}
