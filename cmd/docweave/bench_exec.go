package main

import (
	"fmt"
	"os"
	"syscall"
)

// execBench replaces this process with docweave-bench, so an interrupt, a
// kill or the end of the benchmarks reach one process, not a launcher and
// its child.
func execBench(bin string, argv []string) error {
	if err := syscall.Exec(bin, argv, os.Environ()); err != nil {
		return &exitError{code: 2, err: fmt.Errorf("bench: run %s: %w", bin, err)}
	}
	return nil // not reached: Exec does not return on success
}
