//go:build unix

package workspace

import (
	"errors"
	"os"
	"syscall"
)

// lockExclusive takes f's lock exclusively if no other process holds it,
// reporting whether it did; it never waits.
func lockExclusive(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// lockShared holds f's lock shared, waiting while a process sweeps.
func lockShared(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_SH) }
