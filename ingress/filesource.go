package ingress

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"
)

// DefaultFileInterval is how often a FileSource checks its file for changes
// when no interval is given.
const DefaultFileInterval = 2 * time.Second

// FileSource feeds a Store from a file holding what
// `kubectl get ingress,service,endpointslice -A -o yaml` prints, so the
// service can run outside a cluster, or on a dump of one, with the same
// reachability rules. It re-reads the file when it changes; a file that
// cannot be read or decoded keeps the last good listing served and is
// reported through the Store, the metrics and the log.
//
// Changes are found by polling the file's size, modification time and
// inode rather than by filesystem events, because the usual way files
// change in Kubernetes (a ConfigMap volume swapping a symlink) is missed or
// doubled by event watchers, while a stat every few seconds costs nothing.
type FileSource struct {
	// Path is the file to read.
	Path string
	// Interval between checks for changes; DefaultFileInterval when zero.
	Interval time.Duration
	// Store receives each successfully read listing.
	Store *Store
	// Logger reports reloads and errors.
	Logger zerolog.Logger

	lastStat fileStamp
	lastSum  [32]byte
	loaded   bool
}

// fileStamp is what is compared between polls to notice a change.
type fileStamp struct {
	size  int64
	mtime time.Time
	ino   uint64
}

// Load reads, decodes and publishes the file once. On failure the error is
// recorded in the Store (the served listing is untouched) and returned.
func (f *FileSource) Load() error {
	err := f.load()
	if err != nil {
		f.Store.ReportError(err)
	}
	return err
}

func (f *FileSource) load() error {
	info, err := os.Stat(f.Path)
	if err != nil {
		return fmt.Errorf("ingress source file %s: %w", f.Path, err)
	}
	data, err := os.ReadFile(f.Path)
	if err != nil {
		return fmt.Errorf("ingress source file %s: %w", f.Path, err)
	}
	f.lastStat = stampOf(info)
	sum := sha256Sum(data)
	if f.loaded && sum == f.lastSum {
		return nil // touched but not changed
	}
	objs, stats, err := DecodeObjects(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("ingress source file %s: %w", f.Path, err)
	}
	snap, changed, err := f.Store.Publish(Project(objs))
	if err != nil {
		return fmt.Errorf("ingress source file %s: %w", f.Path, err)
	}
	f.lastSum, f.loaded = sum, true
	ev := f.Logger.Info()
	if !changed {
		ev = f.Logger.Debug()
	}
	ev.Str("path", f.Path).
		Int("ingresses", len(objs.Ingresses)).
		Int("services", len(objs.Services)).
		Int("endpointslices", len(objs.EndpointSlices)).
		Interface("ignored_kinds", stats.Ignored).
		Int("hosts", snap.Hosts).
		Int("paths", snap.Paths).
		Str("etag", snap.ETag).
		Bool("changed", changed).
		Msg("ingress source file loaded")
	return nil
}

// Run loads the file, then checks it for changes every Interval until ctx
// ends. A failure of the first load is returned at once, because a service
// that starts on a missing or broken file should say so rather than sit
// unready; later failures are logged and keep the last good listing.
func (f *FileSource) Run(ctx context.Context) error {
	if err := f.Load(); err != nil {
		return err
	}
	interval := f.Interval
	if interval <= 0 {
		interval = DefaultFileInterval
	}
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		}
		info, err := os.Stat(f.Path)
		if err != nil {
			f.reportOnce(fmt.Errorf("ingress source file %s: %w", f.Path, err))
			continue
		}
		if stampOf(info) == f.lastStat {
			continue
		}
		if err := f.Load(); err != nil {
			f.Logger.Error().Err(err).Str("path", f.Path).Msg("ingress source file not reloaded; still serving the last good listing")
		}
	}
}

// reportOnce records an error without repeating the log line on every poll
// while the same condition lasts.
func (f *FileSource) reportOnce(err error) {
	prev := f.Store.LastError()
	f.Store.ReportError(err)
	if prev == nil || prev.Error() != err.Error() {
		f.Logger.Error().Err(err).Str("path", f.Path).Msg("ingress source file not readable; still serving the last good listing")
	}
	f.lastStat = fileStamp{}
}

func stampOf(info os.FileInfo) fileStamp {
	return fileStamp{size: info.Size(), mtime: info.ModTime(), ino: inodeOf(info)}
}

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }
