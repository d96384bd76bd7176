// Package renders keeps what rendering in parts leaves in the artifact
// store for later builds and other processes: each build's render spec,
// and per unit the record, named by the unit's content address, of its
// rendered output and facts. The render stage writes them, the assemble
// stage reads them; neither reaches into the other.
package renders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/site"
	"github.com/docweave/docweave/spill"
)

// Files of the trees this package writes.
const (
	// SpecFile is the one file of a render spec tree.
	SpecFile = "spec.json"
	// FactsFile and SearchFile are a unit's facts tree: its page list
	// (site.UnitResult.Facts) and its search entries (absent without
	// search).
	FactsFile  = "facts.json"
	SearchFile = "search.json"
	// URLsFile is the file of the URLs a site published (see PutURLs).
	URLsFile = "urls.json"
)

// RecordName is the artifact store record of a unit's rendered output,
// named by its content address (site.UnitAddress).
func RecordName(address string) string { return "unit-" + address }

// sharedStoreHint is what a missing artifact means when the store is
// this process's own: another process made it.
const sharedStoreHint = "with stages in separate processes, set build.artifact_store: broker"

// PutSpec stores a build's render spec and returns its reference.
func PutSpec(ctx context.Context, store artifact.Store, spec site.Spec, scratch string) (string, error) {
	data, err := json.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("render spec: %w", err)
	}
	return putFiles(ctx, store, scratch, map[string][]byte{SpecFile: data})
}

// LoadSpec reads a render spec from the store, through a temporary
// directory below scratch.
func LoadSpec(ctx context.Context, store artifact.Store, ref, scratch string) (site.Spec, error) {
	files, err := readFiles(ctx, store, ref, scratch, SpecFile)
	if err != nil {
		return site.Spec{}, fmt.Errorf("render spec: %w", err)
	}
	var sp site.Spec
	if err := json.Unmarshal(files[SpecFile], &sp); err != nil {
		return site.Spec{}, pipeline.Permanentf("render spec %s: %v", ref, err)
	}
	return sp, nil
}

// PutFacts stores a unit's facts and search entries and returns the
// reference of their tree.
func PutFacts(ctx context.Context, store artifact.Store, facts, search []byte, scratch string) (string, error) {
	files := map[string][]byte{FactsFile: facts}
	if search != nil {
		files[SearchFile] = search
	}
	return putFiles(ctx, store, scratch, files)
}

// LoadFacts reads a unit's facts and search entries (nil without search).
func LoadFacts(ctx context.Context, store artifact.Store, ref, scratch string) (facts, search []byte, err error) {
	files, err := readFiles(ctx, store, ref, scratch, FactsFile, SearchFile)
	if err != nil {
		return nil, nil, fmt.Errorf("unit facts: %w", err)
	}
	if files[FactsFile] == nil {
		return nil, nil, pipeline.Permanentf("unit facts %s: no %s", ref, FactsFile)
	}
	return files[FactsFile], files[SearchFile], nil
}

// PutURLs stores the URLs a site published, for the next build to
// redirect those that move (site.AssembleResult.URLs), and returns the
// reference the saved state keeps: a large site's list would not fit in a
// message.
func PutURLs(ctx context.Context, store artifact.Store, urls []events.PublishedURL, scratch string) (string, error) {
	data, err := json.Marshal(urls)
	if err != nil {
		return "", err
	}
	return putFiles(ctx, store, scratch, map[string][]byte{URLsFile: data})
}

// LoadURLs reads the URLs PutURLs stored.
func LoadURLs(ctx context.Context, store artifact.Store, ref, scratch string) ([]events.PublishedURL, error) {
	files, err := readFiles(ctx, store, ref, scratch, URLsFile)
	if err != nil {
		return nil, fmt.Errorf("published URLs: %w", err)
	}
	var urls []events.PublishedURL
	if err := json.Unmarshal(files[URLsFile], &urls); err != nil {
		return nil, pipeline.Permanentf("published URLs %s: %v", ref, err)
	}
	return urls, nil
}

// PutRecord records a unit's rendered outcome under its address.
func PutRecord(ctx context.Context, store artifact.Store, o events.UnitOutcome) error {
	data, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return store.PutRecord(ctx, RecordName(o.Address), data)
}

// Stored returns the recorded outcome of the unit with the given address
// when its record and its trees (output, facts and any issue list stored
// aside) are in the store; a record whose
// trees were pruned since, or that cannot be read, counts as absent.
func Stored(ctx context.Context, store artifact.Store, address string) (events.UnitOutcome, bool, error) {
	data, err := store.Record(ctx, RecordName(address))
	if errors.Is(err, artifact.ErrNotFound) {
		return events.UnitOutcome{}, false, nil
	}
	if err != nil {
		return events.UnitOutcome{}, false, err
	}
	var o events.UnitOutcome
	if err := json.Unmarshal(data, &o); err != nil || o.Output == "" || o.Facts == "" {
		return events.UnitOutcome{}, false, nil
	}
	refs := []string{o.Output, o.Facts}
	if o.IssuesRef != "" {
		refs = append(refs, o.IssuesRef)
	}
	for _, ref := range refs {
		has, err := store.Has(ctx, artifact.Ref(ref))
		if err != nil {
			return events.UnitOutcome{}, false, err
		}
		if !has {
			return events.UnitOutcome{}, false, nil
		}
	}
	return o, true, nil
}

// MissingArtifact turns a failure to read an artifact into the error a
// stage returns: permanent, naming the setting, when the store is this
// process's own and the artifact is not there (another process made it);
// else as it is, for the runner to retry.
func MissingArtifact(what string, store artifact.Store, err error) error {
	if errors.Is(err, artifact.ErrNotFound) && !artifact.IsShared(store) {
		return pipeline.Permanentf("%s is not in this process's artifact store (%s)", what, sharedStoreHint)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// putFiles stores small files as one tree (spill.PutFiles).
func putFiles(ctx context.Context, store artifact.Store, scratch string, files map[string][]byte) (string, error) {
	return spill.PutFiles(ctx, store, scratch, files)
}

// readFiles reads the named files of a small tree (spill.ReadFiles); a
// tree the store lacks is a MissingArtifact.
func readFiles(ctx context.Context, store artifact.Store, ref, scratch string, names ...string) (map[string][]byte, error) {
	files, err := spill.ReadFiles(ctx, store, ref, scratch, names...)
	if err != nil {
		return nil, MissingArtifact(ref, store, err)
	}
	return files, nil
}
