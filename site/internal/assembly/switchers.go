package assembly

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/site/internal/model"
)

// switcherPlaceholder starts the mark a unit's render leaves in a
// versioned page's version switcher (layouts/_partials/version-switcher.html):
// <!--docweave:versions:<the page's path below its version root, query-escaped>-->.
const switcherPlaceholder = "<!--docweave:versions:"

// fillVersionSwitchers fills in the version switcher of every page of
// unit u below publishDir (see switcherList) and returns how many pages it
// wrote; a unit of a repository without versions has none. A page is
// written anew, never in place: placed files may be hard links into an
// artifact store.
func fillVersionSwitchers(publishDir string, u model.Unit, facts map[string]*model.UnitFacts) (int, error) {
	if u.Version == nil || facts[u.Path] == nil {
		return 0, nil
	}
	patched := 0
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
	return patched, nil
}

// switcherDigests gives each unit of a versioned repository the digest of
// what its version switchers list: every version's pages. A unit's
// switchers change when any version of its repository gains, loses or
// moves a page, and only then.
func switcherDigests(repos []model.Repository, facts map[string]*model.UnitFacts) map[string]string {
	out := map[string]string{}
	for _, r := range repos {
		if len(r.Versions) == 0 {
			continue
		}
		h := sha256.New()
		for _, v := range r.Versions {
			unit := path.Join(r.ContentPath, v.Slug)
			fmt.Fprintf(h, "%s\x00%s\x00%v\n", v.Name, v.Slug, v.Default)
			if f := facts[unit]; f != nil {
				for _, p := range f.Pages {
					fmt.Fprintf(h, "%s\x00%s\n", p.Path, p.URL)
				}
			}
		}
		digest := hex.EncodeToString(h.Sum(nil))
		for _, v := range r.Versions {
			out[path.Join(r.ContentPath, v.Slug)] = digest
		}
	}
	return out
}

// fillSwitcher replaces the switcher mark of one page of unit u.
func fillSwitcher(page []byte, u model.Unit, facts map[string]*model.UnitFacts) ([]byte, bool, error) {
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
	self, ok := facts[u.Path].URL(rel)
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
func switcherList(repo model.Repository, rel, self string, facts map[string]*model.UnitFacts) string {
	var b strings.Builder
	for _, v := range repo.Versions {
		f := facts[path.Join(repo.ContentPath, v.Slug)]
		if f == nil {
			continue
		}
		rootURL, ok := f.URL("")
		if !ok {
			continue
		}
		name := html.EscapeString(v.Name)
		mark := ""
		if v.Default {
			mark = ` <span class="version-default">default</span>`
		}
		if same, ok := f.URL(rel); ok {
			fmt.Fprintf(&b, "\n<li><a href=\"%s\">%s</a>%s</li>", same, name, mark)
			continue
		}
		fmt.Fprintf(&b, "\n<li><a class=\"version-fallback\" href=\"%s\" title=\"Page not in %s: opens its index\">%s <span class=\"version-fallback-mark\" aria-hidden=\"true\">index</span><span class=\"visually-hidden\"> (this page is not in %s; opens its index)</span></a>%s</li>",
			rootURL, name, name, name, mark)
	}
	own := fmt.Sprintf(`<li><a href="%s">`, self)
	return strings.Replace(b.String(), own, fmt.Sprintf(`<li><a href="%s" aria-current="page">`, self), 1)
}
