package webhook

import (
	"fmt"
	"slices"
	"strings"
)

// pushEvent is what every forge's push payload says, in one shape.
type pushEvent struct {
	// repository is the payload's own name for the repository (full_name,
	// path_with_namespace), used only in messages.
	repository    string
	ref           string // refs/heads/<branch> or refs/tags/<tag>
	commit        string // the ref's commit after the push
	deleted       bool   // the push deleted the ref
	defaultBranch string // the repository's default branch, "" if unknown
	urls          []string
}

// pushDecision is what a push means for the site: the repositories to
// rebuild, or why there are none.
type pushDecision struct {
	repos  []string
	branch string
	tag    string
	reason string // set when repos is empty
}

// Ref prefixes of branches and tags.
const (
	branchRefPrefix = "refs/heads/"
	tagRefPrefix    = "refs/tags/"
)

// decidePush matches a push against the configured repositories: a push
// to the configured branch of a configured repository (or, when the
// repository sets no branch, to the payload's default branch) rebuilds it.
// When the payload does not name its default branch either, the push
// triggers: a needless build is cheap (skip evaluation stops it before any
// clone), a missed one leaves stale documentation.
//
// With versioning every branch and tag may be a version, so any push —
// and any deletion, whose version must leave the site — triggers.
func decidePush(m *matcher, p pushEvent, versioned bool) pushDecision {
	who := p.repository
	if who == "" && len(p.urls) > 0 {
		who = repoKey(p.urls[0]) // credentials already stripped
	}
	if who == "" {
		who = "the repository"
	}
	matched := m.byURL(p.urls)
	if len(matched) == 0 {
		return pushDecision{reason: fmt.Sprintf("no configured repository has the URL of %s", who)}
	}
	var branch, tag string
	switch {
	case strings.HasPrefix(p.ref, branchRefPrefix):
		branch = strings.TrimPrefix(p.ref, branchRefPrefix)
	case strings.HasPrefix(p.ref, tagRefPrefix):
		tag = strings.TrimPrefix(p.ref, tagRefPrefix)
	default:
		return pushDecision{reason: fmt.Sprintf("ref %q of %s is neither a branch nor a tag", p.ref, who)}
	}
	if versioned {
		return pushDecision{repos: names(matched), branch: branch, tag: tag}
	}
	if p.deleted {
		return pushDecision{reason: fmt.Sprintf("%s deleted in %s; a deleted ref has nothing to build", p.ref, who)}
	}
	if tag != "" {
		return pushDecision{reason: fmt.Sprintf("tag push (%s) to %s; builds follow branches, tag pushes trigger none (enable versioning to build tags)", tag, who)}
	}
	var hit []configuredRepo
	var wanted []string
	for _, r := range matched {
		want := r.branch
		if want == "" {
			want = p.defaultBranch
		}
		if want == "" || want == branch {
			hit = append(hit, r)
		} else if !slices.Contains(wanted, want) {
			wanted = append(wanted, want)
		}
	}
	if len(hit) == 0 {
		return pushDecision{reason: fmt.Sprintf("push to branch %q of %s; the configured branch is %s",
			branch, who, quoteList(wanted))}
	}
	return pushDecision{repos: names(hit), branch: branch}
}

// names lists the repositories' configured names.
func names(repos []configuredRepo) []string {
	out := make([]string, len(repos))
	for i, r := range repos {
		out[i] = r.name
	}
	return out
}

// quoteList renders ["a", "b"] as `"a" or "b"` for messages.
func quoteList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(quoted, " or ")
}

// isZeroCommit reports whether sha is the all-zero object ID forges send
// as the "after" commit of a deleted ref.
func isZeroCommit(sha string) bool {
	return len(sha) >= 40 && strings.Trim(sha, "0") == ""
}
