// Command docweave-bench runs the benchmarks of docs/performance.md against
// a docweave binary: cold builds against the git command line and Hugo,
// daemon rebuilds, link verification, the ingress API. It is a binary of
// its own so that the benchmarks and their repository farm are not part of
// docweave; `docweave bench ...` runs it (see bench/cli).
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/docweave/docweave/bench/cli"
)

func main() {
	err := cli.NewCommand("docweave-bench").Execute()
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "docweave-bench:", err)
	var ee *cli.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.Code)
	}
	os.Exit(2)
}
