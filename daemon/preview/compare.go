package preview

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
	"github.com/docweave/docweave/spill"
)

// Changes are the page URLs of a preview that differ from the live site.
type Changes struct {
	Added   []string `json:"added"`
	Changed []string `json:"changed"`
	Removed []string `json:"removed"`
}

// BrokenLink is a link that works on the live site and that the
// preview's change breaks (or a broken link the change brings): in the
// changed repository or in another one.
type BrokenLink struct {
	Repository string `json:"repository"`
	Version    string `json:"version,omitempty"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	Link       string `json:"link"`
	// Reason says what is missing: a page, or an id of a page.
	Reason string `json:"reason"`
}

// compareURLs lists the URLs the preview adds, changes (another content
// hash) and removes, against the live site's.
func compareURLs(live, preview []events.PublishedURL) Changes {
	before := make(map[string]string, len(live))
	for _, u := range live {
		before[u.URL] = u.Hash
	}
	out := Changes{Added: []string{}, Changed: []string{}, Removed: []string{}}
	seen := make(map[string]bool, len(preview))
	for _, u := range preview {
		seen[u.URL] = true
		hash, ok := before[u.URL]
		switch {
		case !ok:
			out.Added = append(out.Added, u.URL)
		case hash != u.Hash:
			out.Changed = append(out.Changed, u.URL)
		}
	}
	for _, u := range live {
		if !seen[u.URL] {
			out.Removed = append(out.Removed, u.URL)
		}
	}
	sort.Strings(out.Added)
	sort.Strings(out.Changed)
	sort.Strings(out.Removed)
	return out
}

// comparison works out the links a preview breaks.
type comparison struct {
	cfg         *config.Config
	store       artifact.Store
	scratch     string
	spec        site.Spec
	unitKey     string
	live        events.UnitOutcome // the live render of the changed unit
	contentPath string
	repository  string
}

// brokenLinks are the links broken in the preview and not on the live
// site: links across units (from any repository into the changed one, and
// from the changed one into any), and the changed unit's own links.
// units are the preview's units; liveFacts the changed unit's facts on
// the live site.
func (c comparison) brokenLinks(ctx context.Context, units []site.AssembledUnit, liveFacts []byte, unit site.UnitResult) ([]BrokenLink, error) {
	base := c.spec.Generator.BaseURL
	now, _, _, err := site.CheckAcrossUnits(units, nil, base)
	if err != nil {
		return nil, fmt.Errorf("check the preview's links across units: %w", err)
	}
	var before []site.CrossUnitLink
	if liveFacts != nil {
		if before, _, _, err = site.CheckAcrossUnits(liveUnitsOf(units, c.contentPath, liveFacts), nil, base); err != nil {
			return nil, fmt.Errorf("check the live site's links across units: %w", err)
		}
	}
	type key struct {
		unit, file, dest string
	}
	known := map[key]bool{}
	for _, b := range before {
		known[key{b.Unit, b.File, b.Dest}] = true
	}
	repos := c.unitRepositories()
	var out []BrokenLink
	for _, b := range now {
		if known[key{b.Unit, b.File, b.Dest}] {
			continue
		}
		r := repos[b.Unit]
		reason := fmt.Sprintf("%s is no page of the site", b.URL)
		if !b.NoPage {
			reason = fmt.Sprintf("the page %s has no element with id %q", b.URL, b.Fragment)
		}
		out = append(out, BrokenLink{Repository: r.name, Version: r.version, File: c.repositoryFile(r.name, b.Unit, b.File),
			Line: b.Line, Link: b.Dest, Reason: reason})
	}
	xrefs, err := c.brokenXrefs(units, liveUnitsOf(units, c.contentPath, liveFacts))
	if err != nil {
		return nil, err
	}
	out = append(out, xrefs...)
	own, err := c.ownLinks(ctx, unit)
	if err != nil {
		return nil, err
	}
	out = append(out, own...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Repository != b.Repository {
			return a.Repository < b.Repository
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return out, nil
}

// liveUnitsOf are the preview's units with the changed unit's live facts
// in place of its own: the live site, as far as links go; nil when the
// unit had none.
func liveUnitsOf(units []site.AssembledUnit, contentPath string, liveFacts []byte) []site.AssembledUnit {
	if liveFacts == nil {
		return nil
	}
	out := make([]site.AssembledUnit, 0, len(units))
	for _, u := range units {
		if u.Path == contentPath {
			u.Facts = liveFacts
		}
		out = append(out, u)
	}
	return out
}

// brokenXrefs are the links by id (xref:ID) whose id no page declares in
// the preview and some page did on the live site.
func (c comparison) brokenXrefs(units, live []site.AssembledUnit) ([]BrokenLink, error) {
	base := c.spec.Generator.BaseURL
	now, err := site.MissingXrefs(units, c.spec.Repositories, base)
	if err != nil || len(now) == 0 {
		return nil, err
	}
	known := map[string]bool{}
	if live != nil {
		before, err := site.MissingXrefs(live, c.spec.Repositories, base)
		if err != nil {
			return nil, err
		}
		for _, m := range before {
			known[m.Unit+"\x00"+m.File+"\x00"+m.Dest] = true
		}
	}
	repos := c.unitRepositories()
	var out []BrokenLink
	for _, m := range now {
		if known[m.Unit+"\x00"+m.File+"\x00"+m.Dest] {
			continue
		}
		r := repos[m.Unit]
		out = append(out, BrokenLink{Repository: r.name, Version: r.version, File: c.repositoryFile(r.name, m.Unit, m.File),
			Line: m.Line, Link: m.Dest, Reason: fmt.Sprintf("no page of the site declares the id %q", m.ID)})
	}
	return out, nil
}

// lineAt reads the "line N: " a link issue's message starts with.
var lineAt = regexp.MustCompile(`^line (\d+): `)

// ownLinks are the changed unit's broken links within its repository that
// its live render did not have (compared by file and message, without the
// line, so lines moved by an edit do not count as new).
func (c comparison) ownLinks(ctx context.Context, unit site.UnitResult) ([]BrokenLink, error) {
	liveIssues, err := spill.LoadIssues(ctx, c.store, c.scratch, c.live.IssueList)
	if err != nil {
		return nil, fmt.Errorf("read the live issues of %s: %w", c.unitKey, err)
	}
	known := map[string]bool{}
	for _, is := range liveIssues {
		if isLinkCode(is.Code) {
			known[is.Path+"\x00"+lineAt.ReplaceAllString(is.Message, "")] = true
		}
	}
	var out []BrokenLink
	for _, is := range unit.Issues {
		if !isLinkCode(is.Code) {
			continue
		}
		file := c.repositoryFile(c.repository, c.contentPath, is.Path)
		msg := lineAt.ReplaceAllString(is.Message, "")
		if known[file+"\x00"+msg] {
			continue
		}
		line := 0
		if m := lineAt.FindStringSubmatch(is.Message); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		out = append(out, BrokenLink{Repository: c.repository, Version: c.live.Version, File: file, Line: line, Link: quoted(msg), Reason: msg})
	}
	return out, nil
}

// isLinkCode reports whether an issue code is a broken link's.
func isLinkCode(code string) bool {
	return code == report.CodeLinkUnresolved || code == report.CodeLinkFragmentMissing
}

// quoted is the first quoted string of a message: the link as written.
func quoted(msg string) string {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return ""
	}
	if s, err := strconv.QuotedPrefix(msg[i:]); err == nil {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return ""
}

// unitRepository names a unit's repository and version.
type unitRepository struct{ name, version string }

// unitRepositories maps the site's unit content paths to their
// repositories and versions.
func (c comparison) unitRepositories() map[string]unitRepository {
	out := map[string]unitRepository{}
	for _, r := range c.spec.Repositories {
		out[r.ContentPath] = unitRepository{name: r.Name}
		for _, v := range r.Versions {
			out[r.ContentPath+"/"+v.Slug] = unitRepository{name: r.Name, version: v.Name}
		}
	}
	return out
}

// repositoryFile is a unit's content file's path in its repository: below
// its documentation root when it has exactly one (as the build report
// names files).
func (c comparison) repositoryFile(repository, unitPath, contentFile string) string {
	rel := strings.TrimPrefix(contentFile, unitPath+"/")
	if conf, ok := c.cfg.Repository(repository); ok {
		if roots := conf.DocPaths(); len(roots) == 1 {
			if root := path.Clean(strings.Trim(roots[0], "/")); root != "." && root != "" {
				return path.Join(root, rel)
			}
		}
	}
	return rel
}
