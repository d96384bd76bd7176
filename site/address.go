package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"sync"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/theme"
)

// UnitAddress is the content address of a unit's rendered output: the
// hash of everything its pages depend on — the unit's documentation tree
// (tree, its artifact reference), the theme, the renderer (docweave and
// Hugo), the site settings and what the pages show of the rest of the site
// (repositories and their versions, exactly as the unit's render is given
// them). Two renders with the same address produce the same output, so a
// unit whose address is stored is never rendered again.
func UnitAddress(g config.Generator, repos []Repository, unit, tree string) string {
	spec, _ := json.Marshal(struct {
		Generator    config.Generator    `json:"generator"`
		Repositories []map[string]any    `json:"repositories"`
		Unit         string              `json:"unit"`
		Tree         string              `json:"tree"`
		Untrusted    []string            `json:"untrusted,omitempty"`
		DocRoots     map[string][]string `json:"doc_roots,omitempty"`
		Sources      map[string]string   `json:"sources,omitempty"`
		Links        []linkSource        `json:"links,omitempty"`
	}{g, hugobuild.RepositoryParams(repos, g.BaseURL, nil, false), unit, tree, untrustedPaths(repos), docRootsOf(repos), sourceURLsOf(repos), linkSourcesOf(repos)})
	h := sha256.New()
	io.WriteString(h, hugobuild.AddressVersion+"\n"+hugobuild.RendererID()+"\n"+themeHash()+"\n")
	h.Write(spec)
	return hex.EncodeToString(h.Sum(nil))
}

// untrustedPaths lists the content paths of the untrusted repositories:
// marking a repository untrusted changes its pages (sanitized HTML).
func untrustedPaths(repos []Repository) []string {
	var out []string
	for _, r := range repos {
		if r.Untrusted {
			out = append(out, r.ContentPath)
		}
	}
	return out
}

// docRootsOf maps content paths to documentation roots: the roots decide
// where a link from the repository's root leads.
func docRootsOf(repos []Repository) map[string][]string {
	out := map[string][]string{}
	for _, r := range repos {
		if len(r.DocRoots) > 0 {
			out[r.ContentPath] = r.DocRoots
		}
	}
	return out
}

// sourceURLsOf maps each unit's content path to the forge's file pages,
// where links to files outside the documentation roots lead.
func sourceURLsOf(repos []Repository) map[string]string {
	out := map[string]string{}
	for _, r := range repos {
		if r.SourceURL != "" {
			out[r.ContentPath] = r.SourceURL
		}
		for _, v := range r.Versions {
			if v.SourceURL != "" {
				out[r.ContentPath+"/"+v.Slug] = v.SourceURL
			}
		}
	}
	return out
}

// linkSource is what a link in any unit may be written as to lead into a
// repository: its forge address and its original site.
type linkSource struct {
	ContentPath  string        `json:"content_path"`
	WebURL       string        `json:"web_url,omitempty"`
	OriginalSite *OriginalSite `json:"original_site,omitempty"`
}

// linkSourcesOf lists the repositories that links may name by their forge
// address or their original site's URLs: such links resolve across
// repositories, so a change of either changes every unit's links.
func linkSourcesOf(repos []Repository) []linkSource {
	var out []linkSource
	for _, r := range repos {
		if r.WebURL != "" || r.OriginalSite != nil {
			out = append(out, linkSource{ContentPath: r.ContentPath, WebURL: r.WebURL, OriginalSite: r.OriginalSite})
		}
	}
	return out
}

var (
	themeOnce sync.Once
	themeSum  string
)

// themeHash is the hash of every file of the embedded theme.
func themeHash() string {
	themeOnce.Do(func() {
		themeSum, _ = hugobuild.FSHash(theme.FS()) // an embedded tree always reads
	})
	return themeSum
}
