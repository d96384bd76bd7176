package mdcopy

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Page is one rendered page of a unit, as the unit's facts name it.
type Page struct {
	// Path is the page's path below the unit's root: "" for the root,
	// "/guide/install".
	Path string
	// URL is its URL on the site ("/docs/alpha/guide/install/").
	URL         string
	Title       string
	Description string
	// HTML is the file it was published as.
	HTML string
}

// Unit is what WriteUnit writes the Markdown of: a unit's pages, in the
// order its facts list them (Hugo's: weight, then title), and where its
// two llms files go.
type Unit struct {
	// Title heads llms.txt: the repository's (and version's) name.
	Title string
	// Summary is the blockquote under the title; "" for none.
	Summary string
	// Dir is the unit's published directory, where llms.txt and
	// llms-full.txt are written; URL is its URL.
	Dir, URL string
	Pages    []Page
}

// WriteUnit writes, beside each page of u published as a directory's
// index.html, its Markdown copy index.md, and in u.Dir the unit's
// llms.txt (its pages listed, llmstxt.org's format) and llms-full.txt
// (every page's Markdown, in menu order). A page is read, converted and
// written one at a time: memory holds one page. It returns the number of
// copies written.
func (c *Converter) WriteUnit(u Unit) (int, error) {
	if err := os.MkdirAll(u.Dir, 0o755); err != nil {
		return 0, fmt.Errorf("markdown copies of %s: %w", u.URL, err)
	}
	index, err := newFile(filepath.Join(u.Dir, "llms.txt"))
	if err != nil {
		return 0, err
	}
	defer index.close()
	full, err := newFile(filepath.Join(u.Dir, "llms-full.txt"))
	if err != nil {
		return 0, err
	}
	defer full.close()

	fmt.Fprintf(index.w, "# %s\n", oneLine(u.Title))
	if s := oneLine(u.Summary); s != "" {
		fmt.Fprintf(index.w, "\n> %s\n", s)
	}
	fmt.Fprintf(index.w, "\n## Pages\n\n")
	written := 0
	for _, p := range MenuOrder(u.Pages) {
		if !strings.HasSuffix(p.URL, "/") || filepath.Base(p.HTML) != "index.html" {
			continue // a page with a file name of its own has no directory to hold a copy
		}
		page, err := os.ReadFile(p.HTML)
		if errors.Is(err, fs.ErrNotExist) {
			continue // left out of the site (see the unit's issues)
		}
		if err != nil {
			return written, fmt.Errorf("markdown copy of %s: %w", p.URL, err)
		}
		md, err := c.Convert(page, p.URL)
		if err != nil {
			return written, fmt.Errorf("markdown copy of %s: %w", p.URL, err)
		}
		if md == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(p.HTML), "index.md"), md, 0o644); err != nil {
			return written, fmt.Errorf("markdown copy of %s: %w", p.URL, err)
		}
		written++
		c.listPage(index, p)
		if written > 1 {
			full.w.WriteString("\n---\n\n")
		}
		fmt.Fprintf(full.w, "<!-- %s -->\n\n", c.abs(p.URL))
		full.w.Write(md)
	}
	if err := index.close(); err != nil {
		return written, err
	}
	return written, full.close()
}

// MenuOrder lists pages depth first, as the menu shows them: a directory
// page, then what is below it, each level in the order given.
func MenuOrder(pages []Page) []Page {
	children := map[string][]int{}
	for i, p := range pages {
		if p.Path != "" {
			parent := parentOf(p.Path)
			children[parent] = append(children[parent], i)
		}
	}
	out := make([]Page, 0, len(pages))
	seen := make([]bool, len(pages))
	var walk func(string)
	walk = func(dir string) {
		for _, i := range children[dir] {
			if seen[i] {
				continue
			}
			seen[i] = true
			out = append(out, pages[i])
			walk(pages[i].Path)
		}
	}
	for i, p := range pages {
		if p.Path == "" && !seen[i] {
			seen[i] = true
			out = append(out, p)
		}
	}
	walk("")
	for i, p := range pages { // a page whose parent is not listed: last, in order
		if !seen[i] {
			out = append(out, p)
		}
	}
	return out
}

// parentOf is the path of the directory page above p ("" for the root).
func parentOf(p string) string {
	dir := path.Dir(p)
	if dir == "/" || dir == "." {
		return ""
	}
	return dir
}

// abs is u as a copy read away from the site names it.
func (c *Converter) abs(u string) string {
	if strings.HasPrefix(u, "/") {
		return c.origin + u
	}
	return u
}

// oneLine is s on one line, its runs of white space one space each.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// linkText is s as the text of a Markdown link.
func linkText(s string) string {
	r := strings.NewReplacer("[", `\[`, "]", `\]`)
	return r.Replace(oneLine(s))
}

// file is a buffered file being written.
type file struct {
	f    *os.File
	w    *bufio.Writer
	done bool
}

func newFile(name string) (*file, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", filepath.Base(name), err)
	}
	return &file{f: f, w: bufio.NewWriter(f)}, nil
}

// close flushes and closes the file once; later calls do nothing.
func (f *file) close() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.w.Flush()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(f.f.Name()), err)
	}
	return nil
}
