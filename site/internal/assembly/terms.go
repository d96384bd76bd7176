package assembly

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gohugoio/hugo/common/paths"

	"github.com/docweave/docweave/config"
)

// A push changes a few pages that span units — the front page, /docs/,
// the term pages of the changed pages' terms — and leaves the others as
// they were. The term pages are most of the assembly's rendering (each
// lists every page that carries its term), so a term page whose inputs
// are those of the one in place is not rendered again: its files stay.
//
// A term page shows the pages that carry its term (their stand-ins:
// title, link title, weight, date, terms) in the site's frame. The frame
// is the Hugo configuration without what only the front page and the
// repository lists show (the recent changes, each repository's page count
// and update time), the stand-ins that carry no term (the sections', the
// units' roots), and which taxonomies have terms. Equal frame and equal
// stand-ins give an equal term page; the test that assembles into a
// placed site and from scratch (site/incremental_test.go) holds the
// theme to it.

// PlacedTerm is one term page in a publish directory: the digest of what
// it was rendered from and its files.
type PlacedTerm struct {
	Digest string   `json:"digest"`
	Files  []string `json:"files"`
}

// termInputs are the digests of the frame and of each term page's
// inputs, term pages by their Hugo path (/tags/install).
type termInputs struct {
	frame string
	terms map[string]string
	dirs  map[string]string // term path → its directory in the site (tags/install/)
	pages map[string]int    // term path → how many stand-ins carry the term
}

// maxReusedTerms bounds the term pages one assembly reuses: Hugo matches
// every term page against the cascade's list of paths, so a list of every
// term of a site with thousands would cost more than it saves. The terms
// carried by most pages, the costliest to render, are reused first.
const maxReusedTerms = 512

// termParser parses content paths the way Hugo names a term's page
// (content_map_page_assembler.go: "/<plural>/<term>/_index.md").
var termParser = &paths.PathParser{IsContentExt: func(string) bool { return true }}

// termDigests computes the frame's digest and each term page's from the
// assembly's Hugo configuration and stand-ins.
func termDigests(cfg map[string]any, stubs map[string][]byte) (termInputs, error) {
	in := termInputs{terms: map[string]string{}, dirs: map[string]string{}, pages: map[string]int{}}
	frame := sha256.New()
	frame.Write(frameConfig(cfg))
	perTerm := map[string][]string{} // term path → the stand-ins carrying it
	withTerms := map[string]bool{}
	for _, rel := range slices.Sorted(maps.Keys(stubs)) {
		var front map[string]any
		if err := json.Unmarshal(stubs[rel], &front); err != nil {
			return in, fmt.Errorf("site: assemble: stub %s: %w", rel, err)
		}
		carried := false
		for plural := range taxonomiesOf(cfg) {
			terms, _ := front[plural].([]any)
			for _, t := range terms {
				term, ok := t.(string)
				if !ok || term == "" {
					continue
				}
				p := termParser.Parse("content", "/"+plural+"/"+term+"/_index.md").Base()
				perTerm[p] = append(perTerm[p], rel)
				in.dirs[p] = strings.TrimPrefix(p, "/") + "/"
				withTerms[plural] = true
				carried = true
			}
		}
		if !carried {
			fmt.Fprintf(frame, "%s\x00%s\n", rel, stubs[rel])
		}
	}
	for _, plural := range slices.Sorted(maps.Keys(withTerms)) {
		fmt.Fprintf(frame, "taxonomy\x00%s\n", plural)
	}
	in.frame = hex.EncodeToString(frame.Sum(nil))
	for p, rels := range perTerm {
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%s\n", in.frame, p)
		slices.Sort(rels)
		rels = slices.Compact(rels)
		in.pages[p] = len(rels)
		for _, rel := range rels {
			fmt.Fprintf(h, "%s\x00%s\n", rel, stubs[rel])
		}
		in.terms[p] = hex.EncodeToString(h.Sum(nil))
	}
	return in, nil
}

// taxonomiesOf is the plural names of the configuration's taxonomies.
func taxonomiesOf(cfg map[string]any) map[string]bool {
	out := map[string]bool{}
	if t, ok := cfg["taxonomies"].(map[string]string); ok {
		for _, plural := range t {
			out[plural] = true
		}
	}
	return out
}

// frameConfig is the configuration as a term page sees it: without the
// directories of this process (configWithoutPaths), the front page's
// recent changes, and the repositories' page counts and update times.
func frameConfig(cfg map[string]any) []byte {
	var cp map[string]any
	if err := json.Unmarshal(configWithoutPaths(cfg), &cp); err != nil {
		return configWithoutPaths(cfg) // never: it was marshalled from plain values
	}
	params, _ := cp["params"].(map[string]any)
	dw, _ := params[config.ReservedParam].(map[string]any)
	if dw != nil {
		delete(dw, "recent")
		if repos, ok := dw["repositories"].([]any); ok {
			for _, r := range repos {
				if m, ok := r.(map[string]any); ok {
					delete(m, "pages")
					delete(m, "updated")
					delete(m, "updatedDate")
				}
			}
		}
	}
	data, _ := json.Marshal(cp)
	return data
}

// reusableTerms are the term pages in place whose inputs are the same
// now, with their files; none when the frame changed.
func (p *PlacedSite) reusableTerms(in termInputs) map[string]PlacedTerm {
	if p.TermFrame == "" || p.TermFrame != in.frame {
		return nil
	}
	placed := make(map[string]bool, len(p.AssemblyFiles))
	for _, f := range p.AssemblyFiles {
		placed[f.Rel] = true
	}
	out := map[string]PlacedTerm{}
	for term, t := range p.Terms {
		if in.terms[term] != t.Digest || len(t.Files) == 0 || strings.ContainsAny(term, "{}[]*?,\\") {
			continue
		}
		whole := true
		for _, f := range t.Files {
			whole = whole && placed[f]
		}
		if whole {
			out[term] = t
		}
	}
	if len(out) > maxReusedTerms {
		terms := slices.Collect(maps.Keys(out))
		slices.SortFunc(terms, func(a, b string) int {
			if c := in.pages[b] - in.pages[a]; c != 0 {
				return c
			}
			return strings.Compare(a, b)
		})
		for _, term := range terms[maxReusedTerms:] {
			delete(out, term)
		}
	}
	return out
}

// termCascade is the Hugo configuration's cascade that keeps the reused
// term pages from being rendered: they keep their URL (render: link).
func termCascade(reuse map[string]PlacedTerm) []map[string]any {
	if len(reuse) == 0 {
		return nil
	}
	glob := "{" + strings.Join(slices.Sorted(maps.Keys(reuse)), ",") + "}"
	return []map[string]any{{
		"build":  map[string]any{"render": "link", "list": "always"},
		"target": map[string]any{"path": glob, "kind": "term"},
	}}
}

// placedTerms records each term page's digest and files for the next
// assembly.
func placedTerms(in termInputs, files []FileHash) map[string]PlacedTerm {
	out := make(map[string]PlacedTerm, len(in.terms))
	for term, digest := range in.terms {
		dir := in.dirs[term]
		t := PlacedTerm{Digest: digest}
		nested := false
		for other, od := range in.dirs {
			nested = nested || (other != term && strings.HasPrefix(od, dir))
		}
		for _, f := range files {
			if !nested && strings.HasPrefix(f.Rel, dir) {
				t.Files = append(t.Files, f.Rel)
			}
		}
		out[term] = t
	}
	return out
}
