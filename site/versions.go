package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Multi-version documentation. A repository with Versions has one
// documentation tree per version under content/<ContentPath>/<Slug>/, and
// Render treats each version root the way it treats a non-versioned
// repository's root: the theme's menu, reading order, edit links and
// breadcrumbs work per version (site/theme: repository-of.html). On top
// of that:
//
//   - content/<ContentPath>/ itself gets a generated page with the
//     version-redirect layout, so /docs/<ContentPath>/ sends the reader to
//     the default version (meta refresh, canonical link, and a plain link);
//   - the Hugo configuration carries each repository's versions under
//     params.docweave.repositories[].versions (versionParams), for the
//     version switcher and for any tool reading the generated
//     configuration;
//   - the search index labels every page of a version with its name.

// versionRedirectLayout is the theme layout (layouts/version-redirect.html)
// of a versioned repository's root page.
const versionRedirectLayout = "version-redirect"

// validateVersions checks the versions of one repository: each with a
// name and a slug that is one URL-safe path segment, no slug used twice
// (Hugo's page paths ignore case, so neither may two slugs differing in
// case), exactly one default, and edit URLs as for Repository.EditURL.
func validateVersions(versions []Version) error {
	if len(versions) == 0 {
		return nil
	}
	seen := make(map[string]string, len(versions))
	defaults := 0
	for i, v := range versions {
		if strings.TrimSpace(v.Name) == "" {
			return fmt.Errorf("Versions[%d]: Name is empty; expected the branch or tag name", i)
		}
		if err := validateSlug(v.Slug); err != nil {
			return fmt.Errorf("Versions[%d] (%s): %w", i, v.Name, err)
		}
		key := strings.ToLower(v.Slug)
		if other, dup := seen[key]; dup {
			return fmt.Errorf("Versions[%d] (%s): Slug %q is also used by version %s; expected one slug per version (letter case does not distinguish them)", i, v.Name, v.Slug, other)
		}
		seen[key] = v.Name
		if err := validateCommit(v.Commit); err != nil {
			return fmt.Errorf("Versions[%d] (%s): %w", i, v.Name, err)
		}
		if err := validateEditURL(v.EditURL); err != nil {
			return fmt.Errorf("Versions[%d] (%s): %w", i, v.Name, err)
		}
		if v.Default {
			defaults++
		}
	}
	if defaults != 1 {
		return fmt.Errorf("Versions: %d marked Default; expected exactly one default version, the one /docs/<ContentPath>/ leads to", defaults)
	}
	return nil
}

// validateSlug accepts one path segment of ASCII letters, digits, ".",
// "_" and "-" that does not start with ".", "_" or "-" (Hugo skips hidden
// directories and gives "_"-names meaning).
func validateSlug(slug string) error {
	const expected = `expected one URL path segment of ASCII letters, digits, ".", "_" and "-", not starting with ".", "_" or "-" (such as "v1.1.0" or "feature-x")`
	if slug == "" {
		return errors.New("Slug is empty; " + expected)
	}
	for i, r := range slug {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok || i == 0 && strings.ContainsRune("._-", r) {
			return fmt.Errorf("Slug %q: %s", slug, expected)
		}
	}
	return nil
}

// validateCommit accepts "" or a hexadecimal commit hash.
func validateCommit(commit string) error {
	if commit == "" {
		return nil
	}
	for _, r := range commit {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return fmt.Errorf("Commit %q: expected a hexadecimal commit hash", commit)
		}
	}
	return nil
}

// sitePath returns the path part of a base URL ("/handbook/" for
// "https://example.org/handbook"), with a slash at both ends: the prefix
// every URL of the site is served under.
func sitePath(baseURL string) string {
	p := "/"
	if u, err := url.Parse(baseURL); err == nil && u.Path != "" {
		p = u.Path
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p
}

// versionURL is where a version's root page is served, base path
// included: "/docs/alpha/v1.1.0/", or "/handbook/docs/alpha/v1.1.0/".
func versionURL(basePath, contentPath, slug string) string {
	return path.Join(basePath, "docs", contentPath, slug) + "/"
}

// defaultVersion returns the repository's default version and whether it
// has one.
func defaultVersion(r Repository) (Version, bool) {
	for _, v := range r.Versions {
		if v.Default {
			return v, true
		}
	}
	return Version{}, false
}

// versionParams adds a versioned repository's versions to its entry in
// params.docweave.repositories (see hugoConfig):
//
//	defaultVersion  the default version's name
//	versions        one map per version, in switcher order:
//	  rank     its position in that order (0 first)
//	  name     branch or tag name ("v1.1.0", "feature/x")
//	  slug     its directory and URL segment ("feature-x")
//	  default  true for the default version
//	  tag      true for a tag, false for a branch
//	  commit   the full commit hash (in the assembly's configuration only)
//	  url      its root page's URL path, base path included
//	           ("/docs/alpha/v1.1.0/")
//	  editURL  the pattern of its pages' edit links ("" for none)
//
// A repository without versions is left as it is, so the configuration
// of a non-versioned site does not change.
func versionParams(entry map[string]any, r Repository, basePath string, withCommits bool) {
	if len(r.Versions) == 0 {
		return
	}
	versions := make([]map[string]any, 0, len(r.Versions))
	for i, v := range r.Versions {
		version := map[string]any{
			"rank":    i,
			"name":    v.Name,
			"slug":    v.Slug,
			"default": v.Default,
			"tag":     v.Tag,
			"url":     versionURL(basePath, r.ContentPath, v.Slug),
			"editURL": v.EditURL,
		}
		if withCommits {
			version["commit"] = v.Commit
		}
		versions = append(versions, version)
	}
	entry["versions"] = versions
	if d, ok := defaultVersion(r); ok {
		entry["defaultVersion"] = d.Name
	}
}

// versionedRoots maps the content path of each versioned repository to
// the repository.
func versionedRoots(repos []Repository) map[string]Repository {
	roots := map[string]Repository{}
	for _, r := range repos {
		if len(r.Versions) > 0 {
			roots[r.ContentPath] = r
		}
	}
	return roots
}

// writeVersionRedirects writes the root page of each versioned repository
// below sectionsDir: <dir>/_index.md with JSON front matter holding the
// repository name as title and the version-redirect layout, which sends
// the reader on to the default version.
func writeVersionRedirects(sectionsDir string, redirects map[string]string) error {
	for _, dir := range slices.Sorted(maps.Keys(redirects)) {
		front, err := json.Marshal(map[string]any{"title": redirects[dir], "layout": versionRedirectLayout})
		if err != nil {
			return fmt.Errorf("write version redirect for %s: %w", dir, err)
		}
		target := filepath.Join(sectionsDir, filepath.FromSlash(dir), "_index.md")
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("write version redirect for %s: %w", dir, err)
		}
		if err := os.WriteFile(target, append(front, '\n'), 0o644); err != nil {
			return fmt.Errorf("write version redirect for %s: %w", dir, err)
		}
	}
	return nil
}

// switcherPlaceholder starts the mark a unit's render leaves in a
// versioned page's version switcher (layouts/_partials/version-switcher.html):
// <!--docweave:versions:<the page's path below its version root, query-escaped>-->.
const switcherPlaceholder = "<!--docweave:versions:"

// fillVersionSwitchers fills in the version switcher of every page of
// every versioned unit below publishDir (see switcherList) and returns how
// many pages it wrote. A page is written anew, never in place: placed
// files may be hard links into an artifact store.
func fillVersionSwitchers(publishDir string, repos []Repository, facts map[string]*unitFacts) (int, error) {
	patched := 0
	for _, u := range Units(repos) {
		if u.Version == nil || facts[u.Path] == nil {
			continue
		}
		root := filepath.Join(publishDir, "docs", filepath.FromSlash(u.Path))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out, changed, err := fillSwitcher(data, u, facts)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			if !changed {
				return nil
			}
			patched++
			return replaceFile(p, out)
		})
		if err != nil {
			return patched, fmt.Errorf("site: version switchers of %s: %w", u.Path, err)
		}
	}
	return patched, nil
}

// fillSwitcher replaces the switcher mark of one page of unit u.
func fillSwitcher(page []byte, u Unit, facts map[string]*unitFacts) ([]byte, bool, error) {
	start := bytes.Index(page, []byte(switcherPlaceholder))
	if start < 0 {
		return page, false, nil
	}
	end := bytes.Index(page[start:], []byte("-->"))
	if end < 0 {
		return nil, false, errors.New("version switcher mark is not closed")
	}
	rel, err := url.QueryUnescape(string(page[start+len(switcherPlaceholder) : start+end]))
	if err != nil {
		return nil, false, fmt.Errorf("version switcher mark: %w", err)
	}
	self, ok := facts[u.Path].url(rel)
	if !ok {
		return nil, false, fmt.Errorf("version switcher mark names %q, which is not a page of %s", rel, u.Path)
	}
	list := switcherList(u.Repository, rel, self, facts)
	var b bytes.Buffer
	b.Grow(len(page) + len(list))
	b.Write(page[:start])
	b.WriteString(list)
	b.Write(page[start+end+len("-->"):])
	return b.Bytes(), true, nil
}

// switcherList is the list of a version switcher on the page at path rel
// below a version root, whose own URL is self: for each version of the
// repository that has pages, in switcher order, a link to the same page
// in that version when it has one, else to its root page marked as a
// fallback; the page's own entry carries aria-current.
func switcherList(repo Repository, rel, self string, facts map[string]*unitFacts) string {
	var b strings.Builder
	for _, v := range repo.Versions {
		f := facts[path.Join(repo.ContentPath, v.Slug)]
		if f == nil {
			continue
		}
		rootURL, ok := f.url("")
		if !ok {
			continue
		}
		name := html.EscapeString(v.Name)
		mark := ""
		if v.Default {
			mark = ` <span class="version-default">default</span>`
		}
		if same, ok := f.url(rel); ok {
			fmt.Fprintf(&b, "\n<li><a href=\"%s\">%s</a>%s</li>", same, name, mark)
			continue
		}
		fmt.Fprintf(&b, "\n<li><a class=\"version-fallback\" href=\"%s\" title=\"Page not in %s: opens its index\">%s <span class=\"version-fallback-mark\" aria-hidden=\"true\">index</span><span class=\"visually-hidden\"> (this page is not in %s; opens its index)</span></a>%s</li>",
			rootURL, name, name, name, mark)
	}
	own := fmt.Sprintf(`<li><a href="%s">`, self)
	return strings.Replace(b.String(), own, fmt.Sprintf(`<li><a href="%s" aria-current="page">`, self), 1)
}

// url returns the URL of the unit's page at path rel below its root.
func (f *unitFacts) url(rel string) (string, bool) {
	if f.byPath == nil {
		f.byPath = make(map[string]string, len(f.Pages))
		for _, p := range f.Pages {
			f.byPath[p.Path] = p.URL
		}
	}
	u, ok := f.byPath[rel]
	return u, ok
}
