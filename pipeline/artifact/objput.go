package artifact

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Objects are written here rather than by nats.go's ObjectStore.Put, in
// the object store's own layout (ADR-20: chunks on $O.<bucket>.C.<nuid>,
// then the ObjectInfo on $O.<bucket>.M.<base64 name> as a subject
// rollup), so nats.go reads them as usual. Put (v1.55.0) publishes every
// chunk asynchronously from one reused message and buffer; a chunk
// answered "no responders" during a stream leader election is republished
// 250ms later with whatever chunk the buffer holds by then, and after
// chunks sent meanwhile, and Put still succeeds: the object is recorded
// whole with the wrong bytes. Here each chunk has its own buffer, is
// acknowledged before the next is sent (so the stream holds them in
// order), and carries a message ID, so a publish retried after a lost
// acknowledgement is not stored twice. The ObjectInfo goes last: an object
// whose info is there has all its chunks.

const (
	objectChunkSize = 128 << 10 // nats.go's default chunk size
	// putMarkKey marks, in ObjectInfo metadata, an object written by
	// putObject; one without it may come from nats.go's Put and is
	// written again rather than trusted.
	putMarkKey   = "docweave-put"
	putMarkValue = "ordered-acked"
	// publishTries bounds how often one message is published before the
	// put fails and is left to the caller's redelivery.
	publishTries = 8
	// publishTimeout bounds the wait for one acknowledgement: one sent
	// just before the client lost its server never comes.
	publishTimeout = 5 * time.Second
)

// newObjectID names one stored copy of an object: its chunks' subject.
func newObjectID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return hex.EncodeToString(b[:])
}

func (o *Objects) chunkSubject(id string) string {
	return fmt.Sprintf("$O.%s.C.%s", o.bucket, id)
}

func (o *Objects) metaSubject(name string) string {
	return fmt.Sprintf("$O.%s.M.%s", o.bucket, base64.URLEncoding.EncodeToString([]byte(name)))
}

// spooled is an object's content in a file, so every try of a put reads
// it from the start: its size and the object store's digest of it.
type spooled struct {
	file   *os.File
	size   int64
	digest string // "SHA-256=<base64url>", as nats.go writes and checks it
	named  bool   // the file still has a name to remove on close
}

// spool writes what write produces to a temporary file and measures it.
// The file's name is removed at once where the system allows it, so not
// even a killed process leaves it behind; close releases it.
func spool(write func(io.Writer) error) (*spooled, error) {
	f, err := os.CreateTemp("", "docweave-artifact-*.tar.gz")
	if err != nil {
		return nil, err
	}
	s := &spooled{file: f, named: os.Remove(f.Name()) != nil}
	h := sha256.New()
	if err := write(io.MultiWriter(f, h)); err != nil {
		s.close()
		return nil, err
	}
	if s.size, err = f.Seek(0, io.SeekCurrent); err != nil {
		s.close()
		return nil, err
	}
	s.digest = jetstream.GetObjectDigestValue(h)
	return s, nil
}

func (s *spooled) close() {
	s.file.Close()
	if s.named {
		os.Remove(s.file.Name())
	}
}

// putObject stores content under name. On failure no info names the new
// chunks (or, when the info's publish outcome is unknown, complete reports
// the object absent as long as a chunk is missing), so a later "stored?"
// check does not take a failed put for a stored object.
func (o *Objects) putObject(ctx context.Context, name string, content *spooled) error {
	old, err := o.obs.GetInfo(ctx, name, jetstream.GetObjectInfoShowDeleted())
	if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return err
	}
	id := newObjectID()
	info := jetstream.ObjectInfo{
		ObjectMeta: jetstream.ObjectMeta{
			Name:     name,
			Opts:     &jetstream.ObjectMetaOptions{ChunkSize: objectChunkSize},
			Metadata: map[string]string{putMarkKey: putMarkValue},
		},
		Bucket: o.bucket,
		NUID:   id,
		Size:   uint64(content.size),
		Digest: content.digest,
	}
	subject := o.chunkSubject(id)
	for off := int64(0); off < content.size; off += objectChunkSize {
		chunk := make([]byte, min(objectChunkSize, content.size-off))
		if _, err := content.file.ReadAt(chunk, off); err != nil {
			o.purgeChunks(id)
			return fmt.Errorf("read spooled content: %w", err)
		}
		msg := &nats.Msg{Subject: subject, Data: chunk}
		if err := o.publish(ctx, msg, fmt.Sprintf("%s.%d", id, info.Chunks)); err != nil {
			o.purgeChunks(id)
			return fmt.Errorf("chunk %d: %w", info.Chunks, err)
		}
		info.Chunks++
	}
	// A put of the same name that finished meanwhile stored the same
	// content (names are content addresses): keep its copy rather than
	// replace it, so readers of its info do not lose its chunks.
	if _, err := o.complete(ctx, name); err == nil {
		o.purgeChunks(id)
		return nil
	}
	data, err := json.Marshal(&info)
	if err != nil {
		o.purgeChunks(id)
		return err
	}
	meta := &nats.Msg{Subject: o.metaSubject(name), Data: data, Header: nats.Header{}}
	meta.Header.Set(jetstream.MsgRollup, jetstream.MsgRollupSubject)
	if err := o.publish(ctx, meta, id+".meta"); err != nil {
		// The info may have been stored with its acknowledgement lost.
		if now, gerr := o.obs.GetInfo(context.WithoutCancel(ctx), name); gerr == nil && now.NUID == id {
			return nil
		}
		o.purgeChunks(id)
		return fmt.Errorf("object info: %w", err)
	}
	if old != nil && old.NUID != "" && old.NUID != id {
		o.purgeChunks(old.NUID) // the chunks of the copy this one replaces
	}
	return nil
}

// publish sends msg and waits for the stream to store it, trying again
// while the stream has no leader or the acknowledgement is lost; the
// message ID makes a retry of a stored message a no-op.
func (o *Objects) publish(ctx context.Context, msg *nats.Msg, msgID string) error {
	wait := 100 * time.Millisecond
	var err error
	for try := 1; ; try++ {
		pctx, cancel := context.WithTimeout(ctx, publishTimeout)
		_, err = o.js.PublishMsg(pctx, msg, jetstream.WithMsgID(msgID))
		cancel()
		if err == nil {
			return nil
		}
		if try == publishTries || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// purgeChunks removes the chunks of an object copy no info names (best
// effort: what stays expires with the bucket's TTL).
func (o *Objects) purgeChunks(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = o.stream.Purge(ctx, jetstream.WithPurgeSubject(o.chunkSubject(id)))
}

// complete returns the info of name when the object is stored whole: its
// info is there, was written by putObject, and the stream holds exactly
// the chunks it counts. Otherwise it returns ErrObjectNotFound (or the
// error that kept it from knowing).
//
// Puts of one name may run at once (repositories with the same content
// store the same tree), and a put that replaces a copy purges the old
// copy's chunks: an info read just before it was replaced counts chunks
// that are gone a moment later. So when the chunks do not match, the info
// is read again, and a newer copy is checked in its turn.
func (o *Objects) complete(ctx context.Context, name string) (*jetstream.ObjectInfo, error) {
	seen := map[string]bool{}
	for {
		info, err := o.obs.GetInfo(ctx, name)
		if err != nil {
			return nil, err
		}
		if info.Metadata[putMarkKey] != putMarkValue || info.NUID == "" || seen[info.NUID] {
			return nil, jetstream.ErrObjectNotFound
		}
		seen[info.NUID] = true
		subject := o.chunkSubject(info.NUID)
		si, err := o.stream.Info(ctx, jetstream.WithSubjectFilter(subject))
		if err != nil {
			return nil, err
		}
		if si.State.Subjects[subject] == uint64(info.Chunks) {
			return info, nil
		}
	}
}
