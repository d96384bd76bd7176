package pipeline

import (
	"context"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/workspace"
)

// OpenArtifactStore opens the store build.artifact_store names: the local
// directory of the workspace, or the broker's object store, which every
// process of a split deployment reaches.
func OpenArtifactStore(ctx context.Context, cfg *config.Config, js jetstream.JetStream) (artifact.Store, error) {
	if cfg.Build.ArtifactStoreFor(cfg.Broker.External()) == config.ArtifactStoreBroker {
		var store *artifact.Objects
		err := RetryWhileElecting(ctx, func(ctx context.Context) error {
			var err error
			store, err = artifact.OpenObjects(ctx, js, cfg.Build.StreamReplicas)
			return err
		})
		return store, err
	}
	return artifact.NewLocal(workspace.For(cfg).Artifacts())
}
