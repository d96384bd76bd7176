package gitx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/rs/zerolog"
)

// session speaks Git's upload-pack protocol (version 0/1, through go-git's
// transports) to one remote for one attempt: it reads the reference
// advertisement once and asks for packs with exactly the wants, haves,
// depth and blob filter the acquisition needs — which go-git's
// Clone and Fetch cannot express (they have no filter and always check out
// the whole tree).
//
// Over HTTP every pack request is an independent POST, so one session
// serves them all. SSH and file:// speak to one upload-pack process that
// answers a single request; the session opens a new one for each further
// request.
type session struct {
	rem       *remote
	ep        *transport.Endpoint
	client    transport.Transport
	up        transport.UploadPackSession
	adv       *packp.AdvRefs
	used      bool // the current upload-pack process has answered a request
	stateless bool // HTTP: every request stands alone
	requests  int  // pack requests made, for logs and tests
	log       zerolog.Logger
}

// openSession connects and reads the advertisement. parent is the caller's
// context, to tell cancellation from an attempt timeout.
func openSession(parent, ctx context.Context, rem *remote) (*session, *Error) {
	ep, err := transport.NewEndpoint(rem.url)
	if err != nil {
		return nil, newError(CodeFailed, false, fmt.Errorf("repository url %s: %w", RedactURL(rem.url), err), rem.secrets...)
	}
	c, err := client.NewClient(ep)
	if err != nil {
		return nil, newError(CodeFailed, false, fmt.Errorf("repository url %s: %w", RedactURL(rem.url), err), rem.secrets...)
	}
	s := &session{rem: rem, ep: ep, client: c, stateless: isHTTP(ep.Protocol)}
	if gerr := s.connect(parent, ctx); gerr != nil {
		return nil, gerr
	}
	return s, nil
}

// connect starts an upload-pack conversation and reads its advertisement.
func (s *session) connect(parent, ctx context.Context) *Error {
	up, err := s.client.NewUploadPackSession(s.ep, s.rem.auth)
	if err != nil {
		return classify(parent, "connect to "+RedactURL(s.rem.url), err, s.rem.secrets...)
	}
	adv, err := up.AdvertisedReferencesContext(ctx)
	if err != nil {
		_ = up.Close()
		return classify(parent, "list references of "+RedactURL(s.rem.url), err, s.rem.secrets...)
	}
	s.up, s.adv, s.used = up, adv, false
	return nil
}

// close ends the conversation.
func (s *session) close() {
	if s.up != nil {
		_ = s.up.Close()
	}
}

// listing is the advertisement indexed by name, with peeled tags apart.
func (s *session) listing() (listing, error) {
	all, err := s.adv.AllReferences()
	if err != nil {
		return listing{}, err
	}
	var refs []*plumbing.Reference
	iter, err := all.IterReferences()
	if err != nil {
		return listing{}, err
	}
	_ = iter.ForEach(func(r *plumbing.Reference) error {
		refs = append(refs, r)
		return nil
	})
	for name, h := range s.adv.Peeled {
		refs = append(refs, plumbing.NewReferenceFromStrings(name+"^{}", h.String()))
	}
	return listingOf(refs), nil
}

// canFilterBlobs reports whether the remote can serve a partial clone: it
// accepts a blob filter, and it will later hand out single blobs by hash.
// Over HTTP Git's upload-pack accepts any reachable object as a want; over
// SSH and file:// only when it advertises allow-reachable-sha1-in-want
// (uploadpack.allowReachableSHA1InWant or allowAnySHA1InWant).
func (s *session) canFilterBlobs() bool {
	caps := s.adv.Capabilities
	if !caps.Supports(capability.Filter) {
		return false
	}
	return s.stateless || caps.Supports(capability.AllowReachableSHA1InWant)
}

// packRequest says what one pack request asks for.
type packRequest struct {
	wants, haves []plumbing.Hash
	// depth limits history (0: all); shallows are the commits the local
	// history is cut at, which the server must know to send the right
	// objects.
	depth    int
	shallows []plumbing.Hash
	// filterBlobs asks for commits and trees only (filter blob:none).
	filterBlobs bool
}

// errNotOurRef is what an upload-pack that refuses a want by hash says.
var errNotOurRef = errors.New("the remote refuses objects asked for by hash")

// fetchPack makes one pack request and stores the objects it brings into
// st, returning the server's shallow update. A request whose wants the
// remote refuses as "not our ref" fails with errNotOurRef in its chain.
func (s *session) fetchPack(parent, ctx context.Context, st storer.Storer, req packRequest, what string) (packp.ShallowUpdate, *Error) {
	if len(req.wants) == 0 {
		return packp.ShallowUpdate{}, nil
	}
	if s.used && !s.stateless {
		_ = s.up.Close()
		if gerr := s.connect(parent, ctx); gerr != nil {
			return packp.ShallowUpdate{}, gerr
		}
	}
	s.used = true
	s.requests++
	up := packp.NewUploadPackRequestFromCapabilities(s.adv.Capabilities)
	up.Wants, up.Haves = req.wants, req.haves
	if s.adv.Capabilities.Supports(capability.NoProgress) {
		_ = up.Capabilities.Set(capability.NoProgress)
	}
	if req.depth > 0 || len(req.shallows) > 0 {
		if !s.adv.Capabilities.Supports(capability.Shallow) {
			return packp.ShallowUpdate{}, newError(CodeFailed, false,
				fmt.Errorf("%s: the remote does not support shallow fetches; set build.shallow_depth to 0", what), s.rem.secrets...)
		}
		_ = up.Capabilities.Set(capability.Shallow)
		up.Shallows = req.shallows
		if req.depth > 0 {
			up.Depth = packp.DepthCommits(req.depth)
		}
	}
	if req.filterBlobs {
		_ = up.Capabilities.Set(capability.Filter)
		up.Filter = packp.FilterBlobNone()
	}
	resp, err := s.up.UploadPack(ctx, up)
	if errors.Is(err, transport.ErrEmptyUploadPackRequest) {
		return packp.ShallowUpdate{}, nil // everything wanted is here already
	}
	if err != nil {
		return packp.ShallowUpdate{}, classify(parent, what, notOurRef(err), s.rem.secrets...)
	}
	defer resp.Close()
	var r io.Reader = resp
	switch {
	case up.Capabilities.Supports(capability.Sideband64k):
		r = sideband.NewDemuxer(sideband.Sideband64k, resp)
	case up.Capabilities.Supports(capability.Sideband):
		r = sideband.NewDemuxer(sideband.Sideband, resp)
	}
	stats, err := storePack(st, r)
	if err != nil {
		return packp.ShallowUpdate{}, classify(parent, what, notOurRef(err), s.rem.secrets...)
	}
	s.log.Debug().Int("objects", stats.objects).Int("deltas", stats.deltas).
		Int64("largest_delta_object_bytes", stats.held).Msg("pack stored")
	return resp.ShallowUpdate, nil
}

// notOurRef marks the upload-pack refusal of a want by hash.
func notOurRef(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	// Git says "not our ref <hash>", JGit "want <hash> not valid".
	if strings.Contains(msg, "not our ref") || strings.Contains(msg, "unadvertised object") ||
		(strings.Contains(msg, "want ") && strings.Contains(msg, "not valid")) {
		return fmt.Errorf("%w: %w", errNotOurRef, err)
	}
	return err
}
