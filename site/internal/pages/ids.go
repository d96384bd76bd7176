package pages

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/docweave/docweave/site/internal/model"
)

// idHead is how much of a page the pass over the ids reads first: front
// matter longer than this is read with the whole page.
const idHead = 16 << 10

// pageIDs reads the stable id (front matter id) and the slug every page
// of pages declares, before the pages' links are resolved, so that a link
// by id to a page of the same unit leads to it directly (package links,
// xref.go) and a link to a page with a slug to its URL. It returns, per
// unit root, id → page file, each page's id by file and each page's slug
// by file; an id two pages of one unit declare is XREF_DUPLICATE_ID on
// the second, naming both files (the first keeps it). Only the front
// matter is read, without Hugo's page lexer (frontMatterHead).
func (c *unitsOfContent) pageIDs(pages []string) (map[string]map[string]string, map[string]string, map[string]string, []model.Issue, error) {
	byUnit := map[string]map[string]string{}
	byFile := map[string]string{}
	slugs := map[string]string{}
	var issues []model.Issue
	sorted := append([]string(nil), pages...)
	sort.Strings(sorted)
	for _, rel := range sorted {
		u, ok := c.of(rel)
		if !ok {
			continue
		}
		id, slug, err := readPageID(filepath.Join(c.contentDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if slug != "" {
			slugs[rel] = slug
		}
		if id == "" {
			continue
		}
		if byUnit[u.Root] == nil {
			byUnit[u.Root] = map[string]string{}
		}
		if first, dup := byUnit[u.Root][id]; dup {
			issues = append(issues, model.Issue{Code: model.IssueXrefDuplicateID, Path: rel, Message: fmt.Sprintf(
				"the id %q is declared by both %s and %s; ids are unique within a repository version, links by id lead to %s", id, first, rel, first)})
			continue
		}
		byUnit[u.Root][id] = rel
		byFile[rel] = id
	}
	return byUnit, byFile, slugs, issues, nil
}

// idOrSlugKey finds a line that may set the front matter's id or slug
// (YAML "id:", TOML "slug =", JSON "\"id\":"): only such a page's front
// matter is decoded before it is prepared (decoding YAML costs about as
// much as lexing the page).
var idOrSlugKey = regexp.MustCompile(`(?mi)(?:^|[{,])[ \t]*"?(?:id|slug)"?[ \t]*[:=]`)

// readPageID is the id and the slug the front matter of the page at file
// declares; "" for none, or front matter that cannot be read (reported
// when the page is prepared).
func readPageID(file string) (string, string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", "", fmt.Errorf("read page %s: %w", file, err)
	}
	defer f.Close()
	head := make([]byte, idHead)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", "", fmt.Errorf("read page %s: %w", file, err)
	}
	head = head[:n]
	if !opensLikeFrontMatter(head) || !idOrSlugKey.Match(head) {
		return "", "", nil
	}
	fm, ok := frontMatterHead(head)
	if !ok && n == idHead {
		rest, err := io.ReadAll(f)
		if err != nil {
			return "", "", fmt.Errorf("read page %s: %w", file, err)
		}
		fm, ok = frontMatterHead(append(head, rest...))
	}
	if !ok {
		return "", "", nil
	}
	return idOf(fm), slugOf(fm), nil
}

// slugOf is the front matter's slug when Hugo would use it: one path
// segment (checkFrontMatter drops any other).
func slugOf(fm map[string]any) string {
	for k, v := range fm {
		if strings.EqualFold(k, "slug") {
			if s, ok := v.(string); ok && s != "" && !strings.ContainsAny(s, `/\`) && !strings.Contains(s, "..") && s != "." {
				return s
			}
		}
	}
	return ""
}

// idOf is the front matter's id, as text ("" when it has none).
func idOf(fm map[string]any) string {
	switch v := fm["id"].(type) {
	case string:
		return strings.TrimSpace(v)
	case int, int64, uint64, float64:
		return fmt.Sprint(v)
	}
	return ""
}
