package artifact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Records are small values kept by name beside the trees: the local store
// keeps each as a file under <root>/records/, the object store as an
// object named record/<name>.

// maxRecordBytes bounds one record: records name trees, they do not hold
// content.
const maxRecordBytes = 1 << 20

func checkRecord(name string, value []byte) error {
	if !SafeName(name) {
		return fmt.Errorf("record %q: not a safe name (a-z, 0-9, -, _ and .)", name)
	}
	if len(value) > maxRecordBytes {
		return fmt.Errorf("record %s: %d bytes; records are at most %d", name, len(value), maxRecordBytes)
	}
	return nil
}

// PutRecord implements Store: the value is written to a temporary file and
// renamed into place, so a reader sees the old value or the new one.
func (l *Local) PutRecord(_ context.Context, name string, value []byte) error {
	if err := checkRecord(name, value); err != nil {
		return err
	}
	dir := filepath.Join(l.root, "records")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("put record %s: %w", name, err)
	}
	tmp, err := os.CreateTemp(filepath.Join(l.root, "tmp"), "record-")
	if err != nil {
		return fmt.Errorf("put record %s: %w", name, err)
	}
	if _, err := tmp.Write(value); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("put record %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("put record %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("put record %s: %w", name, err)
	}
	return nil
}

// Record implements Store.
func (l *Local) Record(_ context.Context, name string) ([]byte, error) {
	if !SafeName(name) {
		return nil, fmt.Errorf("record %q: not a safe name", name)
	}
	p := filepath.Join(l.root, "records", name)
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("record %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", name, err)
	}
	used(p)
	return data, nil
}

// PruneRecords removes records not in keep that were last used (written
// or read) more than minAge ago, and returns how many it removed.
func (l *Local) PruneRecords(keep map[string]bool, minAge time.Duration) (int, error) {
	entries, err := os.ReadDir(filepath.Join(l.root, "records"))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("prune records: %w", err)
	}
	removed := 0
	for _, e := range entries {
		if keep[e.Name()] {
			continue
		}
		info, err := e.Info()
		if err != nil || time.Since(info.ModTime()) < minAge {
			continue
		}
		if err := os.Remove(filepath.Join(l.root, "records", e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, fmt.Errorf("prune records: %w", err)
		}
		removed++
	}
	return removed, nil
}

// PutRecord implements Store.
func (o *Objects) PutRecord(ctx context.Context, name string, value []byte) error {
	if err := checkRecord(name, value); err != nil {
		return err
	}
	if _, err := o.obs.Put(ctx, jetstream.ObjectMeta{Name: "record/" + name}, bytes.NewReader(value)); err != nil {
		return fmt.Errorf("put record %s: %w", name, err)
	}
	o.sent.Add(int64(len(value)))
	return nil
}

// Record implements Store.
func (o *Objects) Record(ctx context.Context, name string) ([]byte, error) {
	if !SafeName(name) {
		return nil, fmt.Errorf("record %q: not a safe name", name)
	}
	res, err := o.obs.Get(ctx, "record/"+name)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("record %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", name, err)
	}
	defer res.Close()
	data, err := io.ReadAll(io.LimitReader(res, maxRecordBytes+1))
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", name, err)
	}
	o.received.Add(int64(len(data)))
	return data, nil
}
