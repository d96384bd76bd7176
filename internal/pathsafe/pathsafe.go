// Package pathsafe decides which names from a repository may become files
// on docweave's disk and on the published site. Repositories are untrusted
// input, and one definition serves the checkout (gitx), the collection of
// the documentation tree (docstree) and the artifact store, so a name one
// of them lets through is never refused, or worse accepted, by another.
package pathsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Name says why one path component cannot be written safely, or returns
// "". Beyond what Git itself refuses, it refuses names that are .git on a
// case-insensitive or Windows file system (".GIT", "git~1", ".git. "),
// backslashes and invalid UTF-8, because the published site may be copied
// to such a file system.
func Name(name string) string {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Sprintf("the name %q would leave its directory", name)
	case strings.ContainsAny(name, "/\\"):
		return "the name contains a slash or backslash"
	case !utf8.ValidString(name):
		return "the name is not valid UTF-8"
	}
	for _, r := range name {
		if IsControl(r) {
			return fmt.Sprintf("the name contains the control character U+%04X", r)
		}
	}
	if IsDotGit(name) {
		return "the name is .git on some file systems (a repository's own metadata)"
	}
	return ""
}

// Rel says why a slash-separated relative path cannot be written safely
// (an absolute path, or a component Name refuses), or returns "".
func Rel(rel string) string {
	if strings.HasPrefix(rel, "/") {
		return "the path is absolute"
	}
	for _, part := range strings.Split(rel, "/") {
		if why := Name(part); why != "" {
			return why
		}
	}
	return ""
}

// IsControl reports the C0 and C1 control characters and DEL.
func IsControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)
}

// IsDotGit recognises .git and the spellings file systems treat as .git:
// any case, NTFS trailing dots and spaces or a stream suffix, the 8.3
// short name git~1, and HFS+ ignorable code points.
func IsDotGit(name string) bool {
	stripped := strings.Map(func(r rune) rune {
		if (r >= 0x200c && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x206a && r <= 0x206f) || r == 0xfeff {
			return -1
		}
		return r
	}, name)
	if i := strings.IndexByte(stripped, ':'); i >= 0 {
		stripped = stripped[:i]
	}
	stripped = strings.TrimRight(stripped, ". ")
	return strings.EqualFold(stripped, ".git") || strings.EqualFold(stripped, "git~1")
}

// Shown is p with unprintable bytes escaped (Go syntax, quoted) when it
// has any, for reports and logs; a printable path is returned as it is.
func Shown(p string) string {
	q := fmt.Sprintf("%q", p)
	if q[1:len(q)-1] == p {
		return p
	}
	return q
}
