package artifact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrCorrupt is returned when an artifact read from the broker does not
// match what names it: fewer or other bytes than its info records, or a
// tree that hashes to another reference. It is transient: the read is
// tried again and nothing of it is kept.
var ErrCorrupt = errors.New("artifact does not match its reference")

// fetchTries bounds how often Materialize reads an object that came back
// corrupt or short before leaving it to the caller's retry.
const fetchTries = 3

// fetch downloads the object named name into a temporary file and checks
// it against its info: as many bytes, and the same digest.
func (o *Objects) fetch(ctx context.Context, name string) (*spooled, error) {
	res, err := o.obs.Get(ctx, name)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("%w in the broker's object store %s; what the served site does not use is kept build.artifact_retention (every object at most 7 days), and a process with build.artifact_store: local keeps what it makes on its own disk: give every process of the site build.artifact_store: broker or auto", ErrNotFound, ObjectStoreBucket)
	}
	if err != nil {
		return nil, err
	}
	defer res.Close()
	info, err := res.Info()
	if err != nil {
		return nil, err
	}
	content, err := spool(func(w io.Writer) error {
		n, err := io.Copy(w, res)
		o.received.Add(n)
		return err
	})
	if errors.Is(err, jetstream.ErrDigestMismatch) {
		return nil, fmt.Errorf("%w: content differs from the digest recorded for it", ErrCorrupt)
	}
	if err != nil {
		return nil, err
	}
	if uint64(content.size) != info.Size || content.digest != info.Digest {
		content.close()
		return nil, fmt.Errorf("%w: read %d bytes (%s), its info records %d bytes (%s)", ErrCorrupt, content.size, content.digest, info.Size, info.Digest)
	}
	return content, nil
}

// materialize reads the tree ref into dir, trying a corrupt or short read
// again a few times.
func (o *Objects) materialize(ctx context.Context, ref Ref, name, dir string) error {
	var err error
	for try := 1; ; try++ {
		if err = o.materializeOnce(ctx, ref, name, dir); err == nil || !errors.Is(err, ErrCorrupt) || try == fetchTries {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(try) * 250 * time.Millisecond):
		}
	}
}

// materializeOnce downloads and checks the object, then unpacks it below
// dir, checking that the files make the tree ref names.
func (o *Objects) materializeOnce(ctx context.Context, ref Ref, name, dir string) error {
	content, err := o.fetch(ctx, name)
	if err != nil {
		return err
	}
	defer content.close()
	entries, err := readTar(io.NewSectionReader(content.file, 0, content.size), dir)
	if err != nil {
		return err
	}
	if got := TreeRef(entries); got != ref {
		return fmt.Errorf("%w: its files make tree %s", ErrCorrupt, got)
	}
	return nil
}
