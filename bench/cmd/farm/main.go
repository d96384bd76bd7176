// Command farm generates a repository farm for benchmarks and prints a
// docweave configuration that aggregates it over file://.
//
//	go run ./bench/cmd/farm -dir /tmp/farm -repos 20 -pages 50 > farm.yaml
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docweave/docweave/bench/farm"
)

func main() {
	dir := flag.String("dir", "", "directory for the repositories (required)")
	repos := flag.Int("repos", 20, "number of repositories")
	pages := flag.Int("pages", 50, "pages per repository")
	out := flag.String("out", "", "output.directory for the printed configuration (default <dir>/site)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "farm: -dir is required")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "farm:", err)
		os.Exit(2)
	}
	made, err := farm.Generate(farm.Spec{Dir: filepath.Join(abs, "repos"), Repos: *repos, Pages: *pages})
	if err != nil {
		fmt.Fprintln(os.Stderr, "farm:", err)
		os.Exit(1)
	}
	if *out == "" {
		*out = filepath.Join(abs, "site")
	}
	fmt.Println("repositories:")
	for _, r := range made {
		fmt.Printf("  - {name: %s, url: \"file://%s\"}\n", r.Name, r.Path)
	}
	fmt.Printf("output:\n  directory: %s\n", *out)
}
