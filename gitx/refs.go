package gitx

import (
	"context"
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// RemoteRef is one branch or tag a remote advertises, with the commit it
// names (annotated tags peeled to their commit).
type RemoteRef struct {
	Name   string // short name: "main", "v1.2.0"
	Tag    bool   // a tag (refs/tags/…) rather than a branch (refs/heads/…)
	Commit string
}

// FullName is the reference's full name, the form Acquire's Branch takes
// literally.
func (r RemoteRef) FullName() string {
	if r.Tag {
		return "refs/tags/" + r.Name
	}
	return "refs/heads/" + r.Name
}

// ListRefs lists a remote's branches and tags without cloning (like git
// ls-remote) and names its default branch; multi-version documentation
// chooses its versions from this listing.
func ListRefs(ctx context.Context, req Request) (refs []RemoteRef, defaultBranchName string, err error) {
	return listRefs(ctx, ctx, req)
}

// listRefs lists under ctx; parent is the caller's context, so running out
// of an attempt's time counts as a (transient) network failure while the
// caller giving up does not.
func listRefs(parent, ctx context.Context, req Request) (refs []RemoteRef, defaultBranchName string, err error) {
	rem, err := newRemote(req.URL, req.Auth, req.hostKeys())
	if err != nil {
		return nil, "", configError(err, req)
	}
	l, gerr := listRemote(parent, ctx, rem)
	if gerr != nil {
		return nil, "", gerr
	}
	refs = refsOf(l)
	if def, derr := defaultBranch(l.byName); derr == nil {
		defaultBranchName = def.Short()
	} else if len(refs) > 0 {
		return refs, "", fmt.Errorf("%s: %w", RedactURL(rem.url), derr)
	}
	return refs, defaultBranchName, nil
}

// ListRefsRetrying is ListRefs under the acquisition's retry policy:
// transient failures (CodeNetwork) are tried again with its backoff, so a
// remote that hiccups while versions are discovered costs a delay, not the
// repository. req.AttemptTimeout bounds each attempt. Every error is an *Error carrying the attempts made.
func ListRefsRetrying(ctx context.Context, req Request, retry RetryPolicy) ([]RemoteRef, string, error) {
	if err := retry.validate(); err != nil {
		return nil, "", withAttempts(newError(CodeFailed, false, err), 0)
	}
	for attempt := 1; ; attempt++ {
		actx, cancel := ctx, context.CancelFunc(func() {})
		if req.AttemptTimeout > 0 {
			actx, cancel = context.WithTimeout(ctx, req.AttemptTimeout)
		}
		refs, def, err := listRefs(ctx, actx, req)
		cancel()
		if err == nil {
			return refs, def, nil
		}
		gerr, ok := err.(*Error)
		if !ok {
			gerr = newError(CodeFailed, false, err, req.Auth.Token, req.Auth.Password)
		}
		gerr.Attempts = attempt
		if !gerr.Transient || attempt > retry.MaxRetries || ctx.Err() != nil {
			return nil, "", gerr
		}
		if err := retry.sleep(ctx, retry.Delay(attempt)); err != nil {
			return nil, "", gerr
		}
	}
}

// refsOf lists the branches and tags of a listing, branches first, each
// sorted by name, annotated tags peeled to their commit.
func refsOf(l listing) []RemoteRef {
	var refs []RemoteRef
	for name, r := range l.byName {
		if r.Type() != plumbing.HashReference || (!name.IsBranch() && !name.IsTag()) {
			continue
		}
		commit := r.Hash()
		if h, ok := l.peeled[name]; ok {
			commit = h
		}
		refs = append(refs, RemoteRef{Name: name.Short(), Tag: name.IsTag(), Commit: commit.String()})
	}
	sort.Slice(refs, func(i, j int) bool {
		if refs[i].Tag != refs[j].Tag {
			return !refs[i].Tag
		}
		return refs[i].Name < refs[j].Name
	})
	return refs
}
