package links

import (
	"path"
	"strings"
)

// A page may declare a stable id in its front matter (id: install-guide);
// a link written xref:ID or xref:ID#fragment names that page from any
// repository. Within the unit that declares the id, the link is resolved
// here, to the page file; any other is left to the assembly, which alone
// sees every unit's ids: the link leads to the site path XrefPath, where
// the assembly writes a redirect to the page (package linkcheck, Xrefs).
// A unit's render thus never depends on another unit's ids.

// XrefScheme is the scheme of a link by id.
const XrefScheme = "xref:"

// XrefDir is the folder of the site, below its base path, where the
// assembly writes the redirect pages of links by id: docs/_xref/<id>/ and,
// for a link from a version, docs/_xref/<id>/<version slug>/.
const XrefDir = "docs/_xref"

// XrefID splits a link by id into its id and its fragment (as written);
// ok is false when dest is no link by id.
func XrefID(dest string) (id, fragment string, ok bool) {
	rest, ok := strings.CutPrefix(dest, XrefScheme)
	if !ok {
		return "", "", false
	}
	id, fragment, _ = strings.Cut(rest, "#")
	return strings.TrimSpace(id), fragment, true
}

// XrefPath is the site path a link by id from another unit leads to:
// basePath's XrefDir/<id>/, and the linking unit's version slug when it
// has one.
func XrefPath(basePath, id, slug string) string {
	p := path.Join("/", basePath, XrefDir, id)
	if slug != "" {
		p = path.Join(p, slug)
	}
	return p + "/"
}

// xref resolves the link by id dest written on page rel: to the page of
// the unit that declares the id, as a path relative to rel's directory;
// else to XrefPath. The second result is the page file when the id is the
// unit's own.
func (u Unit) xref(rel, dest string) (string, string) {
	id, frag, _ := XrefID(dest)
	suffix := ""
	if frag != "" {
		suffix = "#" + frag
	}
	if file, ok := u.IDs[id]; ok {
		return relativeLink(path.Dir(rel), file) + suffix, file
	}
	base := "/"
	if u.Site != nil {
		base = u.Site.BasePath
	}
	return XrefPath(base, id, u.Version) + suffix, ""
}
