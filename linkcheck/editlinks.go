package linkcheck

import (
	"net/url"
	"strings"
)

// isEditLink recognises a link that opens a file in a forge's editor. Such
// links need a signed-in user, so checking them only ever yields 401, 403
// or a login page; skip_edit_links leaves them out. The HTML may mark them
// (rel="edit", class edit-link or edit-page, see Extract), and the URL
// shapes of the common forges are recognised too:
//
//	GitHub             /<owner>/<repo>/edit/<ref>/<path>
//	GitLab             /<group>/<repo>/-/edit/<ref>/<path>
//	Gitea, Forgejo     /<owner>/<repo>/_edit/<ref>/<path>
//	Bitbucket          /<owner>/<repo>/src/<ref>/<path>?mode=edit
func isEditLink(raw RawLink, target string) bool {
	if raw.Edit {
		return true
	}
	u, err := url.Parse(target)
	if err != nil {
		return false
	}
	if u.Query().Get("mode") == "edit" {
		return true
	}
	segments := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i, s := range segments {
		switch s {
		case "_edit":
			return i >= 2
		case "edit":
			// /<owner>/<repo>/edit/<ref>/… or /<group>/<repo>/-/edit/…
			if i >= 2 && len(segments) > i+1 {
				return true
			}
		}
	}
	return false
}
