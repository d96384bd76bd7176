package assembly

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/site/internal/model"
)

// Every redirect of a site is listed in one file that ships with it,
// RedirectsFile, in the format Netlify reads (one "from to 301" line per
// redirect, sorted by from): static hosts that read it answer a real 301,
// and the docs server answers from it. Its lines come from the units'
// facts — each page's aliases as Hugo got them, so every source of aliases
// lands there — and from the pages that moved since URLs were remembered
// (Options.Remembered). Hugo's HTML redirect pages stay beside it
// for hosts that read no map.
//
// Two repositories never claim the same URL: the URLs of pages, aliases
// and moved pages are claimed repository after repository, in
// configuration order; a URL claimed already by another repository is a
// URLConflict, and the first claim stands.

// RedirectsFile is the site's redirect map, at the root of the site.
const RedirectsFile = "_redirects"

// Redirect is one line of the redirect map: From (a site path) answers
// 301 with To.
type Redirect struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// URLClaim is one repository's claim on a URL: a page, an alias of a page
// (Kind "alias"), or the old URL of a page that moved (Kind "moved").
type URLClaim struct {
	Repository string `json:"repository"`
	// Forge is the repository's forge when URLs are namespaced by forge.
	Forge string `json:"forge,omitempty"`
	// File is the page's file, relative to its repository's content path
	// ("guide/setup.md"); "" when the facts name none.
	File string `json:"file,omitempty"`
	Kind string `json:"kind"`
}

// URLConflict is a URL two repositories claim: Winner came first in
// configuration order and keeps it; Loser's claim is dropped.
type URLConflict struct {
	URL    string   `json:"url"`
	Winner URLClaim `json:"winner"`
	Loser  URLClaim `json:"loser"`
}

// Message says what the conflict is and what was done, for reports.
func (c URLConflict) Message() string {
	return fmt.Sprintf("URL %s is claimed by repository %s (%s %s) and by repository %s (%s %s); the first in configuration order, %s, keeps it",
		c.URL, c.Winner.name(), c.Winner.Kind, orNone(c.Winner.File), c.Loser.name(), c.Loser.Kind, orNone(c.Loser.File), c.Winner.name())
}

// name is the claim's repository as readers know it: "hugo", or
// "hugo (github)" when URLs are namespaced by forge.
func (c URLClaim) name() string {
	if c.Forge == "" {
		return c.Repository
	}
	return c.Repository + " (" + c.Forge + ")"
}

func orNone(file string) string {
	if file == "" {
		return "(no file)"
	}
	return file
}

// Claim kinds.
const (
	claimPage  = "page"
	claimAlias = "alias"
	claimMoved = "moved"
)

// urlKey is the form under which URLs are compared: without a trailing
// slash or index.html, so /a/, /a and /a/index.html are one URL.
func urlKey(u string) string {
	u = strings.TrimSuffix(u, "index.html")
	if u != "/" {
		u = strings.TrimSuffix(u, "/")
	}
	return u
}

// redirectFrom is the path an alias is requested at: a path without an
// extension is a directory (Hugo writes its index.html).
func redirectFrom(alias string) string {
	if strings.HasSuffix(alias, "/") || path.Ext(alias) != "" {
		return alias
	}
	return alias + "/"
}

// siteClaims collects the claims on the site's URLs.
type siteClaims struct {
	byKey     map[string]claimed
	redirects []Redirect
	conflicts []URLConflict
	moved     []movedPage // the moved pages whose old URL was free
}

type claimed struct {
	URLClaim
	url string
}

// claim records c on url unless it is claimed already; a claim of another
// repository is a conflict. It reports whether c holds url now.
func (s *siteClaims) claim(url string, c URLClaim) bool {
	key := urlKey(url)
	if old, ok := s.byKey[key]; ok {
		if old.Repository != c.Repository || old.Forge != c.Forge {
			s.conflicts = append(s.conflicts, URLConflict{URL: url, Winner: old.URLClaim, Loser: c})
		}
		return false
	}
	s.byKey[key] = claimed{URLClaim: c, url: url}
	return true
}

// claimSite claims every page and alias of the units, repository after
// repository in configuration order, then the old URLs of moved pages.
func claimSite(repos []model.Repository, facts map[string]*model.UnitFacts, moved []movedPage) *siteClaims {
	s := &siteClaims{byKey: map[string]claimed{}}
	units := model.Units(repos)
	for _, r := range repos {
		for _, u := range units {
			if u.Repository.ContentPath != r.ContentPath || facts[u.Path] == nil {
				continue
			}
			for _, p := range facts[u.Path].Pages {
				s.claim(p.URL, URLClaim{Repository: r.Name, Forge: r.Forge, File: repoFile(r, p.File), Kind: claimPage})
			}
		}
		for _, u := range units {
			if u.Repository.ContentPath != r.ContentPath || facts[u.Path] == nil {
				continue
			}
			for _, p := range facts[u.Path].Pages {
				for _, a := range p.Aliases {
					from := redirectFrom(a)
					if s.claim(from, URLClaim{Repository: r.Name, Forge: r.Forge, File: repoFile(r, p.File), Kind: claimAlias}) {
						s.redirects = append(s.redirects, Redirect{From: from, To: p.URL})
					}
				}
			}
		}
	}
	for _, m := range moved {
		owner, ok := s.byKey[urlKey(m.To)]
		if !ok || owner.Kind != claimPage {
			continue // the page it moved to is gone too
		}
		if s.claim(m.From, URLClaim{Repository: owner.Repository, Forge: owner.Forge, File: owner.File, Kind: claimMoved}) {
			s.redirects = append(s.redirects, m.Redirect)
			s.moved = append(s.moved, m)
		}
	}
	slices.SortFunc(s.redirects, func(a, b Redirect) int { return strings.Compare(a.From, b.From) })
	return s
}

// repoFile is a page's file relative to its repository's content path.
func repoFile(r model.Repository, file string) string {
	return strings.TrimPrefix(file, path.Join("docs", r.ContentPath)+"/")
}

// redirectMap is the content of RedirectsFile.
func redirectMap(redirects []Redirect) []byte {
	var b bytes.Buffer
	for _, r := range redirects {
		fmt.Fprintf(&b, "%s %s 301\n", r.From, r.To)
	}
	return b.Bytes()
}

// writeRedirects writes the site's redirect files — the map, and the HTML
// redirect pages of extra — where they differ from the ones in place, and
// removes the ones of the last assembly that are no longer wanted.
func (p *PlacedSite) writeRedirects(dir string, files map[string][]byte) error {
	var next []FileHash
	have := map[string]string{}
	for _, f := range p.Redirects {
		have[f.Rel] = f.Hash
	}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		sum := sha256.Sum256(files[rel])
		hash := hex.EncodeToString(sum[:])
		next = append(next, FileHash{Rel: rel, Hash: hash})
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel))); err == nil && have[rel] == hash {
			continue // in place (a unit placed anew may have taken a page inside it away)
		}
		file := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
		if err := replaceFile(file, files[rel]); err != nil {
			return fmt.Errorf("site: assemble: %w", err)
		}
	}
	taken := p.unitAndAssemblyFiles()
	for _, f := range p.Redirects {
		if _, ok := files[f.Rel]; !ok && !taken[f.Rel] { // a page back at its old URL is a unit's now
			if err := removeFile(dir, f.Rel); err != nil {
				return err
			}
		}
	}
	p.Redirects = next
	return nil
}

// redirectFiles claims the site's URLs and returns the claims and the
// redirect files to write: the map, and an HTML redirect page for each
// moved page (none where a file of the site is, such as a versioned
// repository's root page).
func (p *PlacedSite) redirectFiles(repos []model.Repository, facts map[string]*model.UnitFacts, published, remembered []events.PublishedURL) (*siteClaims, map[string][]byte) {
	taken := p.unitAndAssemblyFiles()
	var moved []movedPage
	for _, m := range movedPages(repos, facts, published, remembered) {
		if !taken[redirectPageFile(m.From)] {
			moved = append(moved, m)
		}
	}
	claims := claimSite(repos, facts, moved)
	files := map[string][]byte{RedirectsFile: redirectMap(claims.redirects)}
	for _, m := range claims.moved {
		files[redirectPageFile(m.From)] = redirectPage(m.To)
	}
	return claims, files
}

// unitAndAssemblyFiles are the files of the units and of the pages that
// span units: no redirect page takes or removes one of them.
func (p *PlacedSite) unitAndAssemblyFiles() map[string]bool {
	taken := map[string]bool{}
	for _, u := range p.Units {
		for _, f := range u.Files {
			taken[f.Rel] = true
		}
	}
	for _, f := range p.AssemblyFiles {
		taken[f.Rel] = true
	}
	return taken
}
