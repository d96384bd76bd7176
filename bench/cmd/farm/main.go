// Command farm generates a repository farm for benchmarks and prints a
// docweave configuration that aggregates it over file://, for people who
// want the farm without a server. `docweave bench farm` also serves it over
// Git smart HTTP and answers its external links.
//
//	go run ./bench/cmd/farm -dir /tmp/farm -repos 20 -pages 50 > farm.yaml
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/docweave/docweave/bench/farm"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "farm:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
}

// run parses args, generates the farm and writes the configuration to out.
func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("farm", flag.ContinueOnError)
	dir := fs.String("dir", "", "directory for the repositories (required)")
	repos := fs.Int("repos", 20, "number of repositories")
	pages := fs.Int("pages", 50, "pages per repository")
	site := fs.String("out", "", "output.directory for the printed configuration (default <dir>/site)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("-dir is required")
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return fmt.Errorf("-dir %s: %w", *dir, err)
	}
	made, err := farm.Generate(farm.Spec{Dir: filepath.Join(abs, "repos"), Repos: *repos, Pages: *pages})
	if err != nil {
		return err
	}
	if *site == "" {
		*site = filepath.Join(abs, "site")
	}
	fmt.Fprintln(out, "repositories:")
	for _, r := range made {
		fmt.Fprintf(out, "  - {name: %s, url: \"file://%s\"}\n", r.Name, r.Path)
	}
	fmt.Fprintf(out, "output:\n  directory: %s\n", *site)
	return nil
}
