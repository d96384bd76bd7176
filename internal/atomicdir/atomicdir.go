// Package atomicdir replaces a directory with another so that a reader
// always finds either the whole old one or the whole new one at its path —
// never nothing and never a mix. Docs servers serve from that path on every
// request, so this is what makes a site switch atomic.
package atomicdir

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Swap puts staging in place of target. When target exists both are
// exchanged in one renameat2(RENAME_EXCHANGE) and the old content, now at
// staging, is removed; otherwise staging is renamed to target. Where the
// exchange is not supported it falls back to two renames, which leave a
// moment without target.
func Swap(staging, target string) error {
	if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(staging, target); err != nil {
			return fmt.Errorf("publish %s: %w", target, err)
		}
		return nil
	}
	err := unix.Renameat2(unix.AT_FDCWD, staging, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE)
	if err == nil {
		return os.RemoveAll(staging)
	}
	old := target + ".old"
	_ = os.RemoveAll(old)
	if err := os.Rename(target, old); err != nil {
		return fmt.Errorf("publish %s: move the old one aside: %w", target, err)
	}
	if err := os.Rename(staging, target); err != nil {
		_ = os.Rename(old, target)
		return fmt.Errorf("publish %s: %w", target, err)
	}
	return os.RemoveAll(old)
}

// Exchange puts staging in place of target and keeps what target held at
// staging, for the caller to reuse: both are exchanged in one
// renameat2(RENAME_EXCHANGE). When target does not exist, staging is
// renamed to it and nothing is left at staging. Where the exchange is not
// supported it falls back to three renames, which leave a moment without
// target.
func Exchange(staging, target string) error {
	if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(staging, target); err != nil {
			return fmt.Errorf("publish %s: %w", target, err)
		}
		return nil
	}
	err := unix.Renameat2(unix.AT_FDCWD, staging, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE)
	if err == nil {
		return nil
	}
	old := target + ".old"
	_ = os.RemoveAll(old)
	if err := os.Rename(target, old); err != nil {
		return fmt.Errorf("publish %s: move the old one aside: %w", target, err)
	}
	if err := os.Rename(staging, target); err != nil {
		_ = os.Rename(old, target)
		return fmt.Errorf("publish %s: %w", target, err)
	}
	if err := os.Rename(old, staging); err != nil {
		return fmt.Errorf("publish %s: keep the old one: %w", target, err)
	}
	return nil
}
