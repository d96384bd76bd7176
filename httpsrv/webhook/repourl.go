package webhook

import (
	"strings"

	"github.com/docweave/docweave/gitx/remote"
)

// repoKey reduces a repository URL, trimmed of surrounding space, to the
// form in which two spellings of the same repository compare equal
// (remote.Address.Key): "host/path" in lower case, without scheme, port,
// credentials, query or ".git". So https://github.com/Org/Repo.git,
// git@github.com:org/repo and ssh://git@github.com:22/org/repo/ share a
// key; at worst a case-insensitive match runs an extra build, and skip
// evaluation makes that cheap. It returns "" for a URL that names nothing
// or does not parse.
func repoKey(raw string) string {
	a, err := remote.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return a.Key()
}
