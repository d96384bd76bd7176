package pages

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docweave/docweave/site/internal/model"
)

// idHead is how much of a page the pass over the ids reads first: front
// matter longer than this is read with the whole page.
const idHead = 16 << 10

// pageIDs reads the stable id (front matter id) every page of pages
// declares, before the pages' links are resolved, so that a link by id to
// a page of the same unit leads to it directly (package links, xref.go).
// It returns, per unit root, id → page file, and each page's id by file;
// an id two pages of one unit declare is XREF_DUPLICATE_ID on the second,
// naming both files (the first keeps it). Only the front matter is parsed.
func (c *unitsOfContent) pageIDs(pages []string) (map[string]map[string]string, map[string]string, []model.Issue, error) {
	byUnit := map[string]map[string]string{}
	byFile := map[string]string{}
	var issues []model.Issue
	sorted := append([]string(nil), pages...)
	sort.Strings(sorted)
	for _, rel := range sorted {
		u, ok := c.of(rel)
		if !ok {
			continue
		}
		id, err := readPageID(filepath.Join(c.contentDir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, nil, nil, err
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
	return byUnit, byFile, issues, nil
}

// readPageID is the id the front matter of the page at file declares; ""
// for none, or front matter that cannot be read (reported when the page
// is prepared).
func readPageID(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", fmt.Errorf("read page %s: %w", file, err)
	}
	defer f.Close()
	head := make([]byte, idHead)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", fmt.Errorf("read page %s: %w", file, err)
	}
	head = head[:n]
	s := bytes.TrimLeft(head, "\ufeff\t\n\v\f\r ")
	if len(s) == 0 || bytes.IndexByte([]byte("+-{"), s[0]) < 0 || !bytes.Contains(head, []byte("id")) {
		return "", nil
	}
	fm, _, ok := splitFrontMatter(head)
	if !ok && n == idHead {
		rest, err := io.ReadAll(f)
		if err != nil {
			return "", fmt.Errorf("read page %s: %w", file, err)
		}
		fm, _, ok = splitFrontMatter(append(head, rest...))
	}
	if !ok {
		return "", nil
	}
	return idOf(fm), nil
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
