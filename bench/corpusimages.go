package bench

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// imageCount is what the pages of a site show as images: the distinct
// images of the site itself they reference, how many of those are
// published (a file under public/), and the distinct external images
// (absolute URLs, which are not the site's to publish).
type imageCount struct {
	Referenced int `json:"referenced"`
	Published  int `json:"published"`
	External   int `json:"external"`
	// Missing lists up to missingShown referenced images not published,
	// as site paths, for whoever looks into the figure.
	Missing []string `json:"missing,omitempty"`
}

// missingShown bounds the missing images a count keeps by name.
const missingShown = 20

// siteImages reads every HTML page under public and counts, per owner
// (see ownerOf), the <img src> it shows. A page is read as a token
// stream, so nothing is held but the set of images.
func siteImages(public string, ownerOf func(sitePath string) string) (map[string]*imageCount, error) {
	type key struct{ owner, target string }
	seen := map[key]bool{}
	counts := map[string]*imageCount{}
	err := filepath.WalkDir(public, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		rel, err := filepath.Rel(public, p)
		if err != nil {
			return err
		}
		page := "/" + filepath.ToSlash(rel)
		owner := ownerOf(page)
		srcs, err := imageSources(p)
		if err != nil {
			return err
		}
		for _, src := range srcs {
			target, external, ok := resolveImage(page, src)
			if !ok || seen[key{owner, target}] {
				continue
			}
			seen[key{owner, target}] = true
			c := counts[owner]
			if c == nil {
				c = &imageCount{}
				counts[owner] = c
			}
			if external {
				c.External++
				continue
			}
			c.Referenced++
			if published(public, target) {
				c.Published++
			} else if len(c.Missing) < missingShown {
				c.Missing = append(c.Missing, target)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("count the images of %s: %w", public, err)
	}
	return counts, nil
}

// imageSources lists the src of every <img> of an HTML file.
func imageSources(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var srcs []string
	z := html.NewTokenizer(f)
	for {
		switch z.Next() {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return srcs, nil
			}
			return nil, fmt.Errorf("%s: %w", file, z.Err())
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if atom.Lookup(name) != atom.Img {
				continue
			}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) == "src" {
					srcs = append(srcs, string(v))
				}
			}
		}
	}
}

// resolveImage turns an image's src on the page at site path page into a
// site path, or says it is external (its absolute URL then is the
// target). Data URLs and empty sources are not images to publish.
func resolveImage(page, src string) (target string, external, ok bool) {
	src = strings.TrimSpace(src)
	if src == "" {
		return "", false, false
	}
	u, err := url.Parse(src)
	if err != nil {
		return src, false, true // a site path nobody can fetch: not published
	}
	switch {
	case u.Scheme == "data":
		return "", false, false
	case u.Scheme != "" || u.Host != "":
		return src, true, true
	}
	p := u.Path
	if p == "" {
		return "", false, false
	}
	if !strings.HasPrefix(p, "/") {
		p = path.Join(path.Dir(page), p)
	}
	return path.Clean(p), false, true
}

// published reports whether the site path target is a file under public.
func published(public, target string) bool {
	rel := strings.TrimPrefix(path.Clean(target), "/")
	if rel == "" || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	st, err := os.Stat(filepath.Join(public, filepath.FromSlash(rel)))
	return err == nil && st.Mode().IsRegular()
}
