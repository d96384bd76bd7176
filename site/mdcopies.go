package site

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/mdcopy"
	"github.com/docweave/docweave/site/internal/model"
)

// markdownCopies writes, after a unit rendered into publish (the render's
// output, basePath the site's path), each of its pages' Markdown copy
// (index.md beside index.html) and the unit's llms.txt and llms-full.txt
// (package mdcopy), from its facts. They travel with the unit's output, so
// a unit reused by its content address keeps them.
func markdownCopies(publish, baseURL string, unit model.Unit, facts []byte) (int, error) {
	var uf model.UnitFacts
	if err := json.Unmarshal(facts, &uf); err != nil {
		return 0, fmt.Errorf("read facts of unit %s: %w", unit.Path, err)
	}
	basePath := hugobuild.SitePath(baseURL)
	u := mdcopy.Unit{Title: unitTitle(unit), Summary: unit.Repository.Description, URL: basePath + "docs/" + unit.Path + "/"}
	if u.Summary == "" {
		u.Summary = uf.Summary
	}
	u.Dir = filepath.Join(publish, "docs", filepath.FromSlash(unit.Path))
	for _, p := range uf.Pages {
		rel, ok := strings.CutPrefix(p.URL, basePath)
		if !ok || strings.Contains(rel, "..") {
			continue
		}
		u.Pages = append(u.Pages, mdcopy.Page{Path: p.Path, URL: p.URL, Title: p.Title, Description: p.Description,
			HTML: filepath.Join(publish, filepath.FromSlash(rel), "index.html")})
	}
	n, err := mdcopy.New(baseURL).WriteUnit(u)
	if err != nil {
		return n, fmt.Errorf("render unit %s: %w", unit.Path, err)
	}
	return n, nil
}

// unitTitle names a unit in its llms.txt: the repository, and the version
// when it is one.
func unitTitle(u model.Unit) string {
	if u.Version != nil {
		return u.Repository.Name + " " + u.Version.Name
	}
	return u.Repository.Name
}
