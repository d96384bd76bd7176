package gitx

import (
	"fmt"
)

// A file larger than Request.MaxFileBytes (build.limits.max_file_bytes) is
// refused downstream, where the documentation is collected, with a
// FILE_TOO_LARGE issue naming it — a rule that reads the file's size only.
// Reading its blob here, only for it to be refused, would cost its whole
// size in memory (go-git inflates a packed object into memory to read it)
// or more: a 200 MB file cost 1.26 GB. So the checkout never reads such a
// blob. It takes the size from the object's header and writes a stand-in
// in its place: a file of that size holding nothing but a hole (sparse on
// every common file system, so no disk either), which the collector sees,
// measures and refuses as before. The stand-in is left out of the index:
// it is not the tracked file, and the next checkout writes the path anew
// (the real content, if the limit was raised). Storing the pack that
// brings such a blob does not read it into memory either (packindex.go).

// oversized is readSmall's answer for a blob over the writer's limit.
type oversized struct{ size int64 }

func (o *oversized) Error() string {
	return fmt.Sprintf("blob of %d bytes over the file limit", o.size)
}

// standIn writes f's stand-in: an untracked file of size bytes, all hole.
// It returns no index entry.
func (w *writer) standIn(f treeEntry, size int64) error {
	out, err := w.create(f)
	if err != nil {
		return err
	}
	if err := out.Truncate(size); err != nil {
		out.Close()
		return fmt.Errorf("write the stand-in of %s (%d bytes, over the file limit): %w", f.path, size, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("write the stand-in of %s: %w", f.path, err)
	}
	w.mu.Lock()
	w.stoodIn = append(w.stoodIn, f.path)
	w.mu.Unlock()
	return nil
}
