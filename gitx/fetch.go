package gitx

import (
	"errors"
	"fmt"
	"io"
	"sort"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
)

// maxWantsPerRequest bounds the blobs asked for in one pack request, so a
// documentation folder of tens of thousands of files does not become one
// request body of megabytes that a forge's front end might refuse.
const maxWantsPerRequest = 10000

// maxLinkRounds bounds the rounds of fetching link targets: each round
// follows links one step further into blobs not fetched yet.
const maxLinkRounds = 8

// fetchTip brings op.ref's tip (and, for a partial acquisition, only
// commits and trees) into repo, with haves for what the workspace already
// holds. It does nothing when the tip is stored and force is false; force
// asks again even so, to deepen a shallow history to depth.
func (op *operation) fetchTip(repo *git.Repository, haves []plumbing.Hash, depth int, force bool) *Error {
	st := repo.Storer
	if !force && st.HasEncodedObject(op.ref.tip) == nil {
		return nil
	}
	shallows, err := st.Shallow()
	if err != nil {
		return op.corrupt("read the shallow list", err)
	}
	upd, gerr := op.sess.fetchPack(op.parent, op.ctx, st, packRequest{
		wants: []plumbing.Hash{op.ref.tip}, haves: haves, depth: depth, shallows: shallows, filterBlobs: op.partial,
	}, "fetch "+op.ref.short()+" from "+RedactURL(op.rem.url))
	if gerr != nil {
		if gerr.Code == CodeFailed && localStoreFailure(gerr) {
			gerr.Code = CodeCorruptWorkspace
		}
		return gerr
	}
	if err := applyShallow(repo, shallows, upd); err != nil {
		return op.corrupt("update the shallow list", err)
	}
	return nil
}

// applyShallow records the server's shallow update: new boundaries added,
// commits whose parents arrived removed, and boundaries whose parents are
// all stored dropped (go-git's own fetch never removes any, which makes
// the git command line treat those commits as roots).
func applyShallow(repo *git.Repository, before []plumbing.Hash, upd packp.ShallowUpdate) error {
	if len(upd.Shallows) == 0 && len(upd.Unshallows) == 0 {
		return nil
	}
	drop := map[plumbing.Hash]bool{}
	for _, h := range upd.Unshallows {
		drop[h] = true
	}
	var out []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	for _, h := range append(append([]plumbing.Hash(nil), before...), upd.Shallows...) {
		if !drop[h] && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	if err := repo.Storer.SetShallow(out); err != nil {
		return err
	}
	return pruneShallow(repo.Storer)
}

// populate checks out commit into the workspace: it chooses the files
// (the request's sparse paths, or all), fetches the blobs a partial
// acquisition still lacks — those of the chosen files and of what their
// symbolic links point at — and writes them, updating the index.
func (op *operation) populate(repo *git.Repository, commit plumbing.Hash, fresh bool) (checkoutStats, *Error) {
	st := repo.Storer
	c, err := object.GetCommit(st, commit)
	if err != nil {
		return checkoutStats{}, op.corrupt("read commit "+short(commit), err)
	}
	t := newTrees(st)
	sel, err := selectFiles(t, c.TreeHash, op.req.Sparse)
	if err != nil {
		return checkoutStats{}, op.corrupt("read the tree of "+short(commit), err)
	}
	// A fresh clone fetched whole holds every blob; anything else may lack
	// some (a partial clone, or a workspace that was one).
	if op.partial || !fresh {
		if gerr := op.fetchMissing(repo, sel.sorted()); gerr != nil {
			return checkoutStats{}, gerr
		}
	}
	if hasLinks(sel) {
		res := newLinkResolver(t, c.TreeHash, op.req.Sparse, func(h plumbing.Hash) (string, bool, error) {
			return readBlob(repo, h)
		})
		for round := 0; ; round++ {
			missing, err := res.extend(&sel)
			if err != nil {
				return checkoutStats{}, op.corrupt("follow symbolic links", err)
			}
			if len(missing) == 0 || round == maxLinkRounds {
				break
			}
			if gerr := op.fetchBlobs(repo, missing); gerr != nil {
				return checkoutStats{}, gerr
			}
		}
		if gerr := op.fetchMissing(repo, sel.sorted()); gerr != nil {
			return checkoutStats{}, gerr
		}
	}
	sel.dropConflicts()
	var prev *index.Index
	if !fresh {
		if prev, err = st.Index(); err != nil {
			return checkoutStats{}, op.corrupt("read index", err)
		}
	}
	idx, stats, err := materialize(op.req.Dir, st, sel.sorted(), prev, fresh, op.req.MaxFileBytes)
	if err != nil {
		return stats, op.corrupt("check out "+short(commit), err)
	}
	if op.req.Referenced != nil {
		if gerr := op.addReferenced(repo, t, c.TreeHash, sel, idx, &stats); gerr != nil {
			return stats, gerr
		}
	}
	if err := st.SetIndex(idx); err != nil {
		return stats, op.corrupt("write index", err)
	}
	stats.Skipped = append(sel.skipped, stats.Skipped...)
	sort.SliceStable(stats.Skipped, func(i, j int) bool { return stats.Skipped[i].Path < stats.Skipped[j].Path })
	for _, s := range stats.Skipped {
		op.log.Warn().Str("path", s.Shown()).Str("reason", s.Reason).Msg("tree entry left out of the checkout")
	}
	return stats, nil
}

// fetchMissing fetches the blobs of files that are not stored yet.
func (op *operation) fetchMissing(repo *git.Repository, files []treeEntry) *Error {
	var missing []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	for _, f := range files {
		if seen[f.hash] {
			continue
		}
		seen[f.hash] = true
		if repo.Storer.HasEncodedObject(f.hash) != nil {
			missing = append(missing, f.hash)
		}
	}
	return op.fetchBlobs(repo, missing)
}

// fetchBlobs asks the remote for blobs by hash. A remote that refuses
// (upload-pack over SSH or file:// without allow-reachable-sha1-in-want)
// is asked for the whole tip instead, blobs and all: the full clone that
// works everywhere.
func (op *operation) fetchBlobs(repo *git.Repository, blobs []plumbing.Hash) *Error {
	for len(blobs) > 0 {
		n := min(len(blobs), maxWantsPerRequest)
		batch := blobs[:n]
		blobs = blobs[n:]
		_, gerr := op.sess.fetchPack(op.parent, op.ctx, repo.Storer, packRequest{wants: batch},
			fmt.Sprintf("fetch %d documentation files from %s", len(batch), RedactURL(op.rem.url)))
		if gerr == nil {
			op.blobRequests++
			continue
		}
		if !errors.Is(gerr, errNotOurRef) {
			return gerr
		}
		op.log.Info().Msg("the remote does not send single files; fetching the whole commit instead")
		return op.fetchWhole(repo)
	}
	return nil
}

// fetchWhole fetches the tip with every blob (no filter, no haves).
func (op *operation) fetchWhole(repo *git.Repository) *Error {
	shallows, err := repo.Storer.Shallow()
	if err != nil {
		return op.corrupt("read the shallow list", err)
	}
	op.partial = false
	upd, gerr := op.sess.fetchPack(op.parent, op.ctx, repo.Storer, packRequest{
		wants: []plumbing.Hash{op.ref.tip}, depth: op.req.Depth, shallows: shallows,
	}, "fetch "+op.ref.short()+" from "+RedactURL(op.rem.url))
	if gerr != nil {
		return gerr
	}
	if err := applyShallow(repo, shallows, upd); err != nil {
		return op.corrupt("update the shallow list", err)
	}
	return nil
}

// readBlob reads a (small) blob, present=false when it is not stored.
func readBlob(repo *git.Repository, h plumbing.Hash) (string, bool, error) {
	obj, err := repo.Storer.EncodedObject(plumbing.BlobObject, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	r, err := obj.Reader()
	if err != nil {
		return "", false, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, 4096))
	return string(data), err == nil, err
}

func hasLinks(sel selection) bool {
	for _, f := range sel.files {
		if f.mode == filemode.Symlink {
			return true
		}
	}
	return false
}

// usesPartial decides whether this acquisition asks for commits and trees
// only: a sparse request, to a remote that can send blobs by hash later.
func usesPartial(req Request, sess *session) bool {
	return req.Sparse != nil && !wholeRepository(req.Sparse) && sess.canFilterBlobs()
}

// wholeRepository reports whether a sparse request still wants everything.
func wholeRepository(sp *Sparse) bool {
	for _, p := range sp.Paths {
		if p == "." || p == "" || p == "/" {
			return true
		}
	}
	return false
}

// noFilterCapability is for messages: what a remote lacks for partial clones.
func noFilterCapability(sess *session) string {
	if !sess.adv.Capabilities.Supports(capability.Filter) {
		return "no filter capability (uploadpack.allowFilter)"
	}
	return "no allow-reachable-sha1-in-want over a stateful transport"
}
