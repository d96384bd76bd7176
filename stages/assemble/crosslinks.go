package assemble

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/renders"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/site"
)

// crossUnitIssues checks the links that lead from one unit into another
// (site.CheckAcrossUnits) and reports each broken one on the linking
// repository, with its file and line: LINK_UNRESOLVED when the page is
// not there, LINK_FRAGMENT_MISSING when its id is not. A link that worked
// in the last build and that this build broke, by rendering the target's
// repository anew without the page or id, is also reported under the
// target's repository (LINK_TARGET_REMOVED), naming the linking
// repository, file and line: what a push breaks elsewhere. Units reused
// from earlier builds are checked through their stored facts. A link by
// id (xref:ID) whose id no page declares is XREF_UNRESOLVED, an error.
func (s *stage) crossUnitIssues(ctx context.Context, units []site.AssembledUnit, outcomes []events.UnitOutcome, spec site.Spec) ([]report.Issue, error) {
	baseURL := spec.Generator.BaseURL
	byPath := make(map[string]events.UnitOutcome, len(outcomes))
	for _, o := range outcomes {
		byPath[o.ContentPath] = o
	}
	previous, err := s.previousFacts(ctx, outcomes)
	if err != nil {
		return nil, err
	}
	broken, links, fragments, err := site.CheckAcrossUnits(units, previous, baseURL)
	if err != nil {
		return nil, fmt.Errorf("check the links across units: %w", err)
	}
	xbroken, xfragments, err := site.CheckXrefFragments(units, previous, spec.Repositories, baseURL)
	if err != nil {
		return nil, fmt.Errorf("check the fragments of links by id: %w", err)
	}
	broken = append(broken, xbroken...)
	s.log.Info().Int("links_across_units", links).Int("fragments_across_units", fragments+xfragments).Int("broken", len(broken)).Msg("links across units checked")
	missing, err := site.MissingXrefs(units, spec.Repositories, baseURL)
	if err != nil {
		return nil, fmt.Errorf("check the links by id: %w", err)
	}
	return append(brokenLinkIssues(broken, byPath, s.repositoryFile), xrefIssues(missing, byPath, s.repositoryFile)...), nil
}

// xrefIssues reports each link by id whose id no page declares on its
// linking repository, with the closest ids: XREF_UNRESOLVED, an error
// whatever build.broken_links says.
func xrefIssues(missing []site.MissingXref, byPath map[string]events.UnitOutcome, fileOf func(events.UnitOutcome, string) string) []report.Issue {
	var out []report.Issue
	for _, m := range missing {
		from := byPath[m.Unit]
		msg := fmt.Sprintf("line %d: link %q: no page of the site declares the id %q", m.Line, m.Dest, m.ID)
		if len(m.Closest) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(m.Closest, ", "))
		}
		out = append(out, report.Issue{Code: report.CodeXrefUnresolved, Severity: report.SeverityError, Stage: Name,
			Repository: from.Repository, Version: from.Version, Path: fileOf(from, m.File), Message: msg})
	}
	return out
}

// brokenLinkIssues reports the broken links across units: each on its
// linking repository, and the ones this build broke under the target's
// repository too (LINK_TARGET_REMOVED). fileOf gives a unit's content
// file's path in its repository.
func brokenLinkIssues(broken []site.CrossUnitLink, byPath map[string]events.UnitOutcome, fileOf func(events.UnitOutcome, string) string) []report.Issue {
	var out []report.Issue
	for _, b := range broken {
		from, to := byPath[b.Unit], byPath[b.Target]
		file := fileOf(from, b.File)
		code, msg := report.CodeLinkFragmentMissing, fmt.Sprintf("line %d: link %q: the page %s of repository %s has no element with id %q", b.Line, b.Dest, b.URL, to.Repository, b.Fragment)
		gone := fmt.Sprintf("the id %q of its page %s", b.Fragment, b.URL)
		if b.NoPage {
			code, msg = report.CodeLinkUnresolved, fmt.Sprintf("line %d: link %q leads to %s, which is no page of repository %s", b.Line, b.Dest, b.URL, to.Repository)
			gone = "its page " + b.URL
		}
		out = append(out, report.Issue{Code: code, Severity: report.SeverityWarning, Stage: Name,
			Repository: from.Repository, Version: from.Version, Path: file, Message: msg})
		if b.Removed {
			out = append(out, report.Issue{Code: report.CodeLinkTargetRemoved, Severity: report.SeverityWarning, Stage: Name,
				Repository: to.Repository, Version: to.Version,
				Message:    fmt.Sprintf("this build removed %s, which repository %s links to from %s line %d (%q)", gone, from.Repository, file, b.Line, b.Dest),
				LinkedFrom: &report.LinkSource{Repository: from.Repository, Version: from.Version, Path: file, Line: b.Line, URL: b.URL, Fragment: b.Fragment}})
		}
	}
	return out
}

// previousFacts are the last build's facts of the units this build
// rendered anew, by content path: none without a saved state, and none
// of a unit whose last facts are no longer stored.
func (s *stage) previousFacts(ctx context.Context, outcomes []events.UnitOutcome) (map[string][]byte, error) {
	if s.states == nil {
		return nil, nil
	}
	var out map[string][]byte
	var saved map[string]events.UnitOutcome
	for _, o := range outcomes {
		if o.Outcome != events.UnitOutcomeRendered {
			continue
		}
		if saved == nil {
			st, err := s.states.Load(ctx)
			if err != nil || st == nil {
				return nil, err
			}
			saved = st.Renders
		}
		last, ok := saved[o.Key]
		if !ok || last.Facts == "" || last.Facts == o.Facts || last.ContentPath != o.ContentPath {
			continue
		}
		facts, _, err := renders.LoadFacts(ctx, s.store, last.Facts, s.scratch)
		if err != nil {
			s.log.Warn().Err(err).Str("unit", o.ContentPath).Msg("the last build's facts of the unit could not be read; links it breaks are reported as broken, not as broken by this build")
			continue
		}
		if out == nil {
			out = map[string][]byte{}
		}
		out[o.ContentPath] = facts
	}
	return out, nil
}

// repositoryFile is the repository's path of the content file of unit o
// (below its content path): below its documentation root when it has
// exactly one.
func (s *stage) repositoryFile(o events.UnitOutcome, contentFile string) string {
	rel := strings.TrimPrefix(contentFile, o.ContentPath+"/")
	if conf, ok := s.cfg.Repository(o.Repository); ok {
		if roots := conf.DocPaths(); len(roots) == 1 {
			if root := path.Clean(strings.Trim(roots[0], "/")); root != "." && root != "" {
				return path.Join(root, rel)
			}
		}
	}
	return rel
}
