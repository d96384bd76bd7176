package artifact

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/pipeline/natsbroker/roles"
)

// ObjectStoreBucket is the JetStream object store that carries artifacts
// between processes (build.artifact_store: broker).
const ObjectStoreBucket = "docweave-artifacts"

// Shared is implemented by stores whose artifacts every process can read;
// a stage that publishes for other processes (the site, for docs servers
// elsewhere) uploads only to such a store.
type Shared interface {
	Shared() bool
}

// IsShared reports whether artifacts put into s are readable by other
// processes.
func IsShared(s Store) bool {
	sh, ok := s.(Shared)
	return ok && sh.Shared()
}

// Objects is a Store in a JetStream object store: each tree is one object,
// a gzip-compressed tar named by the tree's hash, so stages on different
// machines exchange documentation trees and sites without a shared disk.
type Objects struct {
	obs jetstream.ObjectStore
	// js, bucket and stream name the object store as the broker does
	// (a site's scope renames it), for putObject's own publishes, chunk
	// counts and purges.
	js       jetstream.JetStream
	bucket   string
	stream   jetstream.Stream
	sent     atomic.Int64
	received atomic.Int64
}

// OpenObjects creates or binds the artifact object store.
func OpenObjects(ctx context.Context, js roles.ObjectStores, replicas int) (*Objects, error) {
	if replicas < 1 {
		replicas = 1
	}
	if obs, err := js.ObjectStore(ctx, ObjectStoreBucket); err == nil {
		if st, err := obs.Status(ctx); err == nil && st.Replicas() == replicas {
			if obs, err = readFromLeader(ctx, js, obs); err != nil {
				return nil, err
			}
			return bindObjects(ctx, js, obs)
		}
	}
	obs, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:      ObjectStoreBucket,
		Description: "docweave artifacts: documentation trees and sites by content hash",
		TTL:         7 * 24 * time.Hour, // older trees are simply acquired again
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", ObjectStoreBucket, err)
	}
	if obs, err = readFromLeader(ctx, js, obs); err != nil {
		return nil, err
	}
	return bindObjects(ctx, js, obs)
}

// readFromLeader turns off direct gets on the bucket's stream and makes
// obs know it, so that an object's info is read from the stream leader.
// nats.go creates object stores with direct gets, which any replica of
// an R3 stream answers, and a follower may not have the info of an object
// put a moment ago: a stage that announced the object (site.published
// after the site's upload) would send readers to a "not found". Every
// artifact is read right after another process stored it, so reads go
// where writes went.
//
// A handle decides on direct gets from the stream's configuration as it
// last read it, and asks for them with no one to answer ("no responders")
// once the stream allows none. Processes that start together each create
// or update the bucket (nats.go turns direct gets on again) and turn them
// off, so obs may have read the configuration in between: the stream's
// configuration is read through obs itself (Status refreshes its view)
// until obs has seen direct gets off.
func readFromLeader(ctx context.Context, js roles.ObjectStores, obs jetstream.ObjectStore) (jetstream.ObjectStore, error) {
	raw, err := unscoped(js)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", ObjectStoreBucket, err)
	}
	for attempt := 1; ; attempt++ {
		st, err := obs.Status(ctx)
		if err != nil {
			return nil, fmt.Errorf("object store %s: %w", ObjectStoreBucket, err)
		}
		withInfo, ok := st.(interface{ StreamInfo() *jetstream.StreamInfo })
		if !ok || withInfo.StreamInfo() == nil {
			return nil, fmt.Errorf("object store %s: the status carries no stream configuration", ObjectStoreBucket)
		}
		cfg := withInfo.StreamInfo().Config
		if !cfg.AllowDirect {
			return obs, nil
		}
		if attempt > maxDirectOff {
			return nil, fmt.Errorf("object store %s: direct gets were turned on again %d times while turning them off", ObjectStoreBucket, maxDirectOff)
		}
		cfg.AllowDirect = false
		if _, err := raw.UpdateStream(ctx, cfg); err != nil {
			return nil, fmt.Errorf("object store %s: reads from the stream leader: %w", ObjectStoreBucket, err)
		}
	}
}

// maxDirectOff bounds how often readFromLeader turns direct gets off: each
// process that opens the store at the same moment may turn them on once.
const maxDirectOff = 10

// bindObjects finds the bucket's own name and stream behind obs, and a
// JetStream context that takes names as they are, without the scope the
// caller's js may apply.
func bindObjects(ctx context.Context, js roles.ObjectStores, obs jetstream.ObjectStore) (*Objects, error) {
	st, err := obs.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", ObjectStoreBucket, err)
	}
	raw, err := unscoped(js)
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", ObjectStoreBucket, err)
	}
	stream, err := raw.Stream(ctx, "OBJ_"+st.Bucket())
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", ObjectStoreBucket, err)
	}
	return &Objects{obs: obs, js: raw, bucket: st.Bucket(), stream: stream}, nil
}

// unscoped is a JetStream context on js's connection and API that names
// streams and subjects as given.
func unscoped(js roles.ObjectStores) (jetstream.JetStream, error) {
	switch opts := js.Options(); {
	case opts.Domain != "":
		return jetstream.NewWithDomain(js.Conn(), opts.Domain)
	case opts.APIPrefix != "":
		return jetstream.NewWithAPIPrefix(js.Conn(), opts.APIPrefix)
	}
	return jetstream.New(js.Conn())
}

// Objects is a Store every process reads.
var (
	_ Store  = (*Objects)(nil)
	_ Shared = (*Objects)(nil)
)

// Shared implements Shared.
func (o *Objects) Shared() bool { return true }

// BytesSent and BytesReceived count compressed bytes moved through the
// broker by this process, for the scale-out measurements.
func (o *Objects) BytesSent() int64     { return o.sent.Load() }
func (o *Objects) BytesReceived() int64 { return o.received.Load() }

func objectName(ref Ref) (string, error) {
	h, err := ref.Hex()
	if err != nil {
		return "", err
	}
	return "tree/" + h, nil
}

// PutTree implements Store. The files are hashed first; a tree the store
// already holds whole is not uploaded again. The archive is written to a
// temporary file before the upload, so a chunk published again is read
// again from it.
func (o *Objects) PutTree(ctx context.Context, files []File) (Ref, error) {
	entries := make([]Entry, 0, len(files))
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		if !SafeRel(f.Rel) {
			return "", fmt.Errorf("put tree: unsafe path %q", f.Rel)
		}
		if seen[f.Rel] {
			return "", fmt.Errorf("put tree: path %q given twice", f.Rel)
		}
		seen[f.Rel] = true
		sum, err := HashFile(f.Source)
		if err != nil {
			return "", fmt.Errorf("put tree: %s: %w", f.Rel, err)
		}
		entries = append(entries, Entry{Rel: f.Rel, Hash: sum})
	}
	ref := TreeRef(entries)
	name, _ := objectName(ref)
	_, err := o.complete(ctx, name)
	if err == nil {
		return ref, nil
	}
	if !errors.Is(err, jetstream.ErrObjectNotFound) {
		return "", fmt.Errorf("put tree %s: %w", ref, err)
	}
	content, err := spool(func(w io.Writer) error { return writeTar(ctx, w, files) })
	if err != nil {
		return "", fmt.Errorf("put tree %s: %w", ref, err)
	}
	defer content.close()
	if err := o.putObject(ctx, name, content); err != nil {
		return "", fmt.Errorf("put tree %s: %w", ref, err)
	}
	o.sent.Add(content.size)
	return ref, nil
}

// Materialize implements Store. The download is checked against its
// recorded size and digest, and the unpacked files against ref, before
// Materialize succeeds; a read that does not match is tried again and
// then fails with ErrCorrupt, a transient error.
func (o *Objects) Materialize(ctx context.Context, ref Ref, dir string) error {
	name, err := objectName(ref)
	if err != nil {
		return err
	}
	if err := o.materialize(ctx, ref, name, dir); err != nil {
		return fmt.Errorf("materialize %s: %w", ref, err)
	}
	return nil
}

// Has implements Store: a tree counts as stored when it is stored whole,
// so an upload that failed halfway is made again.
func (o *Objects) Has(ctx context.Context, ref Ref) (bool, error) {
	name, err := objectName(ref)
	if err != nil {
		return false, err
	}
	_, err = o.complete(ctx, name)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return false, nil
	}
	return err == nil, err
}

// writeTar streams the files as a gzip-compressed tar.
func writeTar(ctx context.Context, w io.Writer, files []File) error {
	gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := addFile(tw, f); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func addFile(tw *tar.Writer, f File) error {
	in, err := os.Open(f.Source)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: f.Rel, Mode: 0o644, Size: st.Size(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err = io.Copy(tw, in)
	return err
}

// readTar unpacks a tree below dir, accepting regular files with safe
// relative names only: an artifact is not trusted to stay in its place. It
// returns the files with the hashes of what it wrote.
func readTar(r io.Reader, dir string) ([]Entry, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	var entries []Entry
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return entries, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg || !SafeRel(h.Name) {
			return nil, fmt.Errorf("unexpected entry %q in artifact", h.Name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(h.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return nil, err
		}
		sum := sha256.New()
		if _, err := io.Copy(io.MultiWriter(out, sum), tr); err != nil {
			out.Close()
			return nil, err
		}
		if err := out.Close(); err != nil {
			return nil, err
		}
		entries = append(entries, Entry{Rel: h.Name, Hash: hex.EncodeToString(sum.Sum(nil))})
	}
}
