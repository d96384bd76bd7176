package gitx

import (
	"context"
	"fmt"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/docweave/docweave/config"
)

// remoteRef is the reference a request resolves to on the remote.
type remoteRef struct {
	name   plumbing.ReferenceName // refs/heads/main or refs/tags/v1.0
	commit plumbing.Hash          // the commit, annotated tags peeled
	// tip is the object the reference names: the commit, or an annotated
	// tag object. It is what a fetch asks for, because upload-pack hands
	// out advertised objects only.
	tip plumbing.Hash
}

// short is the branch or tag name without its refs/… prefix.
func (r remoteRef) short() string { return r.name.Short() }

// RemoteHead asks the remote which commit branch points at, without cloning
// (git ls-remote), so a caller can skip a build when nothing changed. An
// empty branch means the remote's default branch, whose name is returned as
// resolvedBranch. branch may also name a tag ("v1.0" or "refs/tags/v1.0");
// then the tagged commit and the tag name are returned. SSH host keys are
// checked against the user's known_hosts; use RemoteHeadFor for other
// policies. Errors are *Error values classified like Acquire's.
func RemoteHead(ctx context.Context, url, branch string, auth config.Auth) (commit, resolvedBranch string, err error) {
	return RemoteHeadFor(ctx, Request{URL: url, Branch: branch, Auth: auth})
}

// RemoteHeadFor is RemoteHead with the URL, branch, credentials and SSH host
// key policy of req (its Dir and strategy are ignored).
func RemoteHeadFor(ctx context.Context, req Request) (commit, resolvedBranch string, err error) {
	rem, err := newRemote(req.URL, req.Auth, req.hostKeys())
	if err != nil {
		return "", "", configError(err, req)
	}
	ref, gerr := lookupRemote(ctx, ctx, rem, req.Branch)
	if gerr != nil {
		gerr.Attempts = 1
		return "", "", gerr
	}
	return ref.commit.String(), ref.short(), nil
}

// listing is a remote's advertised references, with annotated tags'
// peeled commits (the "^{}" entries) apart.
type listing struct {
	byName map[plumbing.ReferenceName]*plumbing.Reference
	peeled map[plumbing.ReferenceName]plumbing.Hash
}

// listRemote asks the remote for its references without cloning (git
// ls-remote). parent is the caller's context, to tell cancellation from an
// attempt timeout in the classification.
func listRemote(parent, ctx context.Context, rem *remote) (listing, *Error) {
	lister := git.NewRemote(memory.NewStorage(), &gitconfig.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{rem.url}})
	refs, err := lister.ListContext(ctx, &git.ListOptions{Auth: rem.auth, PeelingOption: git.AppendPeeled})
	if err != nil {
		return listing{}, classify(parent, "list references of "+RedactURL(rem.url), err, rem.secrets...)
	}
	return listingOf(refs), nil
}

// listingOf indexes an ls-remote answer by name.
func listingOf(refs []*plumbing.Reference) listing {
	l := listing{byName: map[plumbing.ReferenceName]*plumbing.Reference{}, peeled: map[plumbing.ReferenceName]plumbing.Hash{}}
	for _, r := range refs {
		if name, ok := strings.CutSuffix(r.Name().String(), "^{}"); ok {
			l.peeled[plumbing.ReferenceName(name)] = r.Hash()
			continue
		}
		l.byName[r.Name()] = r
	}
	return l
}

// lookupRemote lists the remote's references and resolves branch. parent is
// the caller's context, used to tell cancellation from an attempt timeout.
func lookupRemote(parent, ctx context.Context, rem *remote, branch string) (remoteRef, *Error) {
	refs, gerr := listRemote(parent, ctx, rem)
	if gerr != nil {
		return remoteRef{}, gerr
	}
	return pickRef(refs, rem, branch)
}

// pickRef resolves branch in a listing, failing with BRANCH_NOT_FOUND.
func pickRef(refs listing, rem *remote, branch string) (remoteRef, *Error) {
	ref, err := resolveRef(refs, branch)
	if err != nil {
		return remoteRef{}, newError(CodeBranchNotFound, false, fmt.Errorf("%s: %w", RedactURL(rem.url), err), rem.secrets...)
	}
	return ref, nil
}

// resolveRef picks the wanted reference out of an ls-remote listing: the
// default branch (HEAD's symref, or the branch HEAD's commit matches on
// servers that do not advertise symrefs) when want is empty, else the branch
// want, else the tag want; a full "refs/…" name is taken literally.
func resolveRef(l listing, want string) (remoteRef, error) {
	byName, peeled := l.byName, l.peeled
	commitOf := func(name plumbing.ReferenceName) (remoteRef, bool) {
		r, ok := byName[name]
		if !ok || r.Type() != plumbing.HashReference {
			return remoteRef{}, false
		}
		if h, ok := peeled[name]; ok {
			return remoteRef{name: name, commit: h, tip: r.Hash()}, true
		}
		return remoteRef{name: name, commit: r.Hash(), tip: r.Hash()}, true
	}

	if want == "" {
		if len(byName) == 0 {
			return remoteRef{}, fmt.Errorf("remote repository is empty (no branches)")
		}
		name, err := defaultBranch(byName)
		if err != nil {
			return remoteRef{}, err
		}
		ref, ok := commitOf(name)
		if !ok {
			return remoteRef{}, fmt.Errorf("default branch %s is advertised by HEAD but missing", name.Short())
		}
		return ref, nil
	}
	candidates := []plumbing.ReferenceName{plumbing.ReferenceName(want)}
	if !strings.HasPrefix(want, "refs/") {
		candidates = []plumbing.ReferenceName{plumbing.NewBranchReferenceName(want), plumbing.NewTagReferenceName(want)}
	}
	for _, name := range candidates {
		if ref, ok := commitOf(name); ok {
			return ref, nil
		}
	}
	return remoteRef{}, fmt.Errorf("branch %q not found on the remote", want)
}

// defaultBranch reads the remote HEAD.
func defaultBranch(byName map[plumbing.ReferenceName]*plumbing.Reference) (plumbing.ReferenceName, error) {
	head, ok := byName[plumbing.HEAD]
	if !ok {
		return "", fmt.Errorf("the remote advertises no HEAD, so it has no default branch; set the branch explicitly")
	}
	if head.Type() == plumbing.SymbolicReference {
		return head.Target(), nil
	}
	var matches []plumbing.ReferenceName
	for name, r := range byName {
		if name.IsBranch() && r.Hash() == head.Hash() {
			matches = append(matches, name)
		}
	}
	sort.Slice(matches, func(i, j int) bool { return rankBranch(matches[i]) < rankBranch(matches[j]) })
	if len(matches) == 0 {
		return "", fmt.Errorf("the remote HEAD %s matches no branch; set the branch explicitly", head.Hash())
	}
	return matches[0], nil
}

// rankBranch orders guesses: main, then master, then alphabetical.
func rankBranch(n plumbing.ReferenceName) string {
	switch n.Short() {
	case "main":
		return "0"
	case "master":
		return "1"
	}
	return "2" + n.String()
}
