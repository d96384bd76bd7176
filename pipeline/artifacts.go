package pipeline

import (
	"context"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/pipeline/natsbroker"
	"github.com/docweave/docweave/workspace"
)

// OpenArtifactStore opens the store build.artifact_store names for a
// process on broker b: the local directory of the workspace, or the
// broker's object store, which every process of a split deployment
// reaches. "auto" is the object store whenever other processes can reach
// b (config.BuildSettings.ArtifactStoreFor).
func OpenArtifactStore(ctx context.Context, cfg *config.Config, b *natsbroker.Broker) (artifact.Store, error) {
	if cfg.Build.ArtifactStoreFor(b.Shared()) == config.ArtifactStoreBroker {
		var store *artifact.Objects
		err := natsbroker.RetryWhileElecting(ctx, func(ctx context.Context) error {
			var err error
			store, err = artifact.OpenObjects(ctx, b.JS, cfg.Build.StreamReplicas)
			return err
		})
		return store, err
	}
	return artifact.NewLocal(workspace.For(cfg).Artifacts())
}
