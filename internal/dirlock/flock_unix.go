//go:build unix

package dirlock

import (
	"errors"
	"os"
	"syscall"
)

// Supported reports whether this system has the advisory locks: without
// them no lock is ever held, and a process never learns it is alone.
const Supported = true

func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// TryExclusive takes f's lock exclusively if no other process holds it,
// reporting whether it did; it never waits.
func TryExclusive(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// Shared holds f's lock shared (turning an exclusive hold into a shared
// one), waiting while another process holds it exclusively.
func Shared(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_SH) }
