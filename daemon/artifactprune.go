package daemon

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/buildstate"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/renders"
)

// servedArtifacts are the trees and unit records the saved state names:
// what the served site and the next build need. The repositories' trees
// are reused while unchanged; the units' outputs, facts and issue lists
// are reused by a unit whose address is unchanged and stand in for a unit
// that fails; the URL list redirects pages that move; the site itself is
// what docs servers fetch.
func servedArtifacts(st *buildstate.SiteState) (map[artifact.Ref]bool, map[string]bool) {
	keep := map[artifact.Ref]bool{}
	for _, o := range st.Repositories {
		keep[artifact.Ref(o.Tree)] = true
	}
	keep[artifact.Ref(st.URLs)] = true
	keep[artifact.Ref(st.SiteHash)] = true
	records := map[string]bool{}
	for _, u := range st.Renders {
		keep[artifact.Ref(u.Output)] = true
		keep[artifact.Ref(u.Facts)] = true
		if u.IssuesRef != "" {
			keep[artifact.Ref(u.IssuesRef)] = true // the unit's record names it
		}
		records[renders.RecordName(u.Address)] = true
	}
	return keep, records
}

// pruneArtifacts drops stored trees and unit records that the saved state
// no longer refers to and that no build used since the finished build was
// requested (at since). Builds run one at a time, so a build in flight
// started later, and every tree or record it uses is marked as used then.
func pruneArtifacts(states *buildstate.States, store *artifact.Local, since time.Time, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := states.Load(ctx)
	if err != nil || st == nil {
		return
	}
	keep, records := servedArtifacts(st)
	unused := time.Since(since)
	if n, err := store.Prune(keep, unused); err != nil {
		log.Warn().Err(err).Msg("artifact store not pruned")
	} else if n > 0 {
		log.Info().Int("trees_removed", n).Msg("artifact store pruned")
	}
	if n, err := store.PruneRecords(records, unused); err != nil {
		log.Warn().Err(err).Msg("unit records not pruned")
	} else if n > 0 {
		log.Info().Int("records_removed", n).Msg("records of units no longer on the site pruned")
	}
}

// pruneObjects prunes the broker's object store while no build runs: the
// coordinator holds builds asked for meanwhile back (Maintain). A build
// that runs already is left alone; its own end prunes.
//
// Why this design: every object a build reuses across builds is named by
// the saved state, which pruning keeps; anything else a build looks up is
// stored again (a tree) or rendered again (a unit whose record or output
// is gone, renders.Stored) when it is absent. What is unsafe is removing
// an object between a build's look-up and its read, and no build runs
// while pruning does. So no object needs a "last used" mark: its age
// (when it was stored, by the broker's clock) and the saved state decide.
func (c *controlPlane) pruneObjects(states *buildstate.States, store *artifact.Objects) {
	c.mu.Lock()
	coord := c.coord
	c.mu.Unlock()
	if coord == nil {
		return
	}
	coord.Maintain(func() { pruneObjectStore(states, store, c.cfg.Build.ArtifactRetention, c.log) })
}

// pruneObjectStore removes the objects the saved state does not name that
// were stored longer ago than retention (build.artifact_retention).
func pruneObjectStore(states *buildstate.States, store *artifact.Objects, retention time.Duration, log zerolog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := states.Load(ctx)
	if err != nil || st == nil {
		// Without the saved state, nothing says what the site needs.
		return
	}
	keep, records := servedArtifacts(st)
	start := time.Now()
	n, err := store.Prune(ctx, keep, records, retention)
	if err != nil {
		log.Warn().Err(err).Int("objects_removed", n).Msg("the broker's object store not pruned")
		return
	}
	if n > 0 {
		log.Info().Int("objects_removed", n).Dur("took", time.Since(start)).Msg("the broker's object store pruned")
	}
}
