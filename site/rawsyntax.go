package site

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docweave/docweave/site/internal/model"
	"github.com/docweave/docweave/site/internal/rawsyntax"
)

// rawSyntaxIssues reads each rendered page of a unit that has a file in
// contentDir (its facts, as splitFacts gives them, under publish, the
// render's output; basePath the site's path; indexFiles the files mounted
// as directories' _index) and returns a RAW_SYNTAX issue for each kind of
// source syntax a reader meets as text on it, naming the page's file and
// an example. These issues are how the build report counts, per repository,
// what no dialect converted.
func rawSyntaxIssues(publish, contentDir, basePath string, facts []byte, indexFiles map[string]string) ([]model.Issue, error) {
	var uf unitFacts
	if err := json.Unmarshal(facts, &uf); err != nil {
		return nil, fmt.Errorf("read facts of unit: %w", err)
	}
	var issues []model.Issue
	for _, p := range uf.Pages {
		file, ok := strings.CutPrefix(p.File, "docs/") // Hugo's content/docs is our content/
		if !ok {
			continue // a directory page without a file of its own
		}
		if path.Base(file) == "_index"+path.Ext(file) {
			if src, ok := indexFiles[path.Dir(file)]; ok {
				file = src // index.md or README.md, mounted as _index.md
			}
		}
		if _, err := os.Stat(filepath.Join(contentDir, filepath.FromSlash(file))); err != nil {
			continue // a page docweave made (a folder's listing): its text is its pages'
		}
		rel, ok := strings.CutPrefix(p.URL, basePath)
		if !ok || strings.Contains(rel, "..") {
			continue
		}
		f, err := os.Open(filepath.Join(publish, filepath.FromSlash(rel), "index.html"))
		if err != nil {
			continue // a page published elsewhere (a url of its own) or not as HTML
		}
		found, err := rawsyntax.Scan(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read rendered page %s: %w", p.URL, err)
		}
		for _, fd := range found {
			issues = append(issues, model.Issue{Code: model.IssueRawSyntax, Path: file, Message: fmt.Sprintf(
				"the rendered page shows %s syntax as text: %q; a construct its dialect does not convert (see docs/other-tools.md)", fd.Kind, fd.Example)})
		}
	}
	return issues, nil
}
