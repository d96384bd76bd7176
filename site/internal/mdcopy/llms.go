package mdcopy

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Section is one repository in the site's llms.txt: its name, the URL of
// its own llms.txt, and its pages (its default version's).
type Section struct {
	Name, URL string
	Pages     []Page
}

// WriteSiteIndex writes the site's llms.txt (llmstxt.org) into dir: the
// site's title and description, then a section per repository listing
// its pages, each a link to its Markdown copy with its description. A
// repository's llms-full.txt holds the pages' text; this file is the map.
func (c *Converter) WriteSiteIndex(dir, title, description string, sections []Section) error {
	f, err := newFile(filepath.Join(dir, "llms.txt"))
	if err != nil {
		return err
	}
	defer f.close()
	fmt.Fprintf(f.w, "# %s\n", oneLine(title))
	if d := oneLine(description); d != "" {
		fmt.Fprintf(f.w, "\n> %s\n", d)
	}
	for _, s := range sections {
		fmt.Fprintf(f.w, "\n## %s\n\n", oneLine(s.Name))
		if s.URL != "" {
			fmt.Fprintf(f.w, "Every page of it in one file: [llms-full.txt](%s)\n\n", c.abs(strings.TrimSuffix(s.URL, "/")+"/llms-full.txt"))
		}
		for _, p := range MenuOrder(s.Pages) {
			if !strings.HasSuffix(p.URL, "/") {
				continue
			}
			c.listPage(f, p)
		}
	}
	return f.close()
}

// listPage writes p as a line of an llms.txt list.
func (c *Converter) listPage(f *file, p Page) {
	fmt.Fprintf(f.w, "- [%s](%s)", linkText(p.Title), c.abs(p.URL+"index.md"))
	if d := oneLine(p.Description); d != "" {
		fmt.Fprintf(f.w, ": %s", d)
	}
	f.w.WriteString("\n")
}
