package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"
)

func init() { registerCommand(newBenchCommand) }

// benchBinary is the name of the benchmarks' own binary (cmd/docweave-bench).
const benchBinary = "docweave-bench"

// newBenchCommand is `docweave bench`: a launcher of docweave-bench, the
// benchmarks of docs/performance.md, which are a binary of their own so
// that they and their repository farm are not compiled into docweave. It
// runs docweave-bench from beside this binary (else from PATH) with every
// argument as given, measuring this binary.
func newBenchCommand(*globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "bench [run|farm|chart] [flags]",
		Short: "Measure docweave against the git command line and Hugo (runs docweave-bench)",
		Long: `bench runs docweave-bench, the benchmarks of docs/performance.md, with this
binary as the one measured. Build it beside docweave:

  go build -o docweave-bench ./cmd/docweave-bench

Then "docweave bench run --quick" smoke-tests every row, "docweave bench run"
takes every figure, "docweave bench --help" lists the rest.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			self, err := os.Executable()
			if err != nil {
				return &exitError{code: 2, err: fmt.Errorf("bench: find this binary: %w", err)}
			}
			bin := filepath.Join(filepath.Dir(self), benchBinary)
			if _, err := os.Stat(bin); err != nil {
				if bin, err = exec.LookPath(benchBinary); err != nil {
					return &exitError{code: 2, err: fmt.Errorf("bench: %s is neither beside %s nor on PATH; build it with: go build -o %s ./cmd/docweave-bench", benchBinary, self, filepath.Join(filepath.Dir(self), benchBinary))}
				}
			}
			// The launcher becomes docweave-bench (same process: signals,
			// exit code and output are the benchmarks' own).
			return execBench(bin, append([]string{bin, "--docweave", self}, args...))
		},
	}
}
