package gitx

import "strings"

// OneOf picks, among the files of a repository whose paths end with the
// site-rooted path rest (AnyFolder), the one a rooted link names: the only
// one, or, when several do, the only one in a folder named static (where
// Docusaurus, Hugo and others keep the files they publish at the site's
// root: website/static/img/x.png for /img/x.png). It returns false when
// none or several remain.
func OneOf(files []string, rest string) (string, bool) {
	if len(files) == 1 {
		return files[0], true
	}
	var found string
	for _, f := range files {
		if f == "static/"+rest || strings.HasSuffix(f, "/static/"+rest) {
			if found != "" {
				return "", false
			}
			found = f
		}
	}
	return found, found != ""
}
