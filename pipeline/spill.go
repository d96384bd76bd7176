package pipeline

import (
	"context"
	"os"
	"path/filepath"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/spill"
)

// boundIssues is the middleware that keeps messages bounded: every issue
// list longer than events.MaxInlineIssues in a message the stage returns
// is stored in the artifact store and replaced by its reference and a
// preview, and a message still over events.MaxEventBytes is a permanent
// error, not a retry (spill.Bound). Stages collect issues as they find
// them; none has to remember that a repository can give thousands.
func boundIssues(store artifact.Store, scratch string, next Handler) Handler {
	return func(ctx context.Context, ev events.Event) ([]events.Event, error) {
		out, err := next(ctx, ev)
		if err != nil {
			return out, err
		}
		for _, o := range out {
			if err := spill.Bound(ctx, store, scratch, o); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// Scratch is a directory of this process's workspace for a stage's small
// temporary files (lists written before they are stored, say): below
// Workspace, else below the configuration's workspace, else below the
// system's temporary directory.
func (d Deps) Scratch(name string) string {
	switch {
	case d.Workspace != "":
		return filepath.Join(d.Workspace, name)
	case d.Config != nil:
		return filepath.Join(d.Config.WorkspaceRoot(), name)
	default:
		return filepath.Join(os.TempDir(), "docweave-"+name)
	}
}
