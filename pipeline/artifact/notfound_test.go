package artifact

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A missing artifact is ErrNotFound, and the message says which store was
// asked and which setting decides it: in a split deployment the likely
// cause is a process that keeps its artifacts elsewhere.
func TestMissingArtifactNamesTheSetting(t *testing.T) {
	ctx := context.Background()
	ref := Ref("sha256:" + strings.Repeat("ab", 32))
	local, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	objects, err := OpenObjects(ctx, testJetStream(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, store := range map[string]Store{"local": local, "objects": objects} {
		err := store.Materialize(ctx, ref, t.TempDir())
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "build.artifact_store") {
			t.Errorf("%s store: %v", name, err)
		}
	}
}
