package gitx

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/docweave/docweave/internal/gittest"
)

// farmRepos makes n repositories of files Markdown pages each, served over
// Git smart HTTP on loopback, and returns them with their clone URLs.
func farmRepos(b *testing.B, n, files int) ([]*gittest.Repo, []string) {
	b.Helper()
	srv := gittest.NewHTTPServer(b, gittest.HTTPOptions{})
	var repos []*gittest.Repo
	var urls []string
	for i := 0; i < n; i++ {
		batch := map[string]string{}
		for f := 0; f < files; f++ {
			batch[fmt.Sprintf("docs/s%02d/page%03d.md", f%10, f)] = fmt.Sprintf("# Page %d of repo %d\n\nSome documentation text.\n", f, i)
		}
		r := gittest.NewRepo(b, batch)
		repos = append(repos, r)
		urls = append(urls, srv.Add(b, fmt.Sprintf("repo%02d", i), r))
	}
	return repos, urls
}

// inParallel runs job for every index with at most workers at once, the way
// the clone stage does with clone_concurrency.
func inParallel(n, workers int, job func(i int) error) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	sem := make(chan struct{}, workers)
	for i := 0; i < n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := job(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	return first
}

func gitCLI(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gittest.GitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %v: %v: %s", args, err, out)
	}
	return nil
}

// BenchmarkFarmAcquisition measures issue 3's figure: 20 repositories of 200
// files over Git smart HTTP at concurrency 4, by docweave (Acquire) and by
// the git command line, for a fresh depth-1 clone and for an update after
// one new commit in every repository. Compare the ns/op of the pairs.
func BenchmarkFarmAcquisition(b *testing.B) {
	const repos, files, workers = 20, 200, 4
	farm, urls := farmRepos(b, repos, files)
	ctx := context.Background()
	policy := RetryPolicy{}

	b.Run("fresh/docweave", func(b *testing.B) {
		for b.Loop() {
			root := b.TempDir()
			if err := inParallel(repos, workers, func(i int) error {
				_, err := Acquire(ctx, Request{URL: urls[i], Depth: 1, Dir: filepath.Join(root, fmt.Sprint(i)), Strategy: StrategyFresh}, policy)
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fresh/git-cli", func(b *testing.B) {
		for b.Loop() {
			root := b.TempDir()
			if err := inParallel(repos, workers, func(i int) error {
				return gitCLI(root, "clone", "-q", "--depth", "1", urls[i], fmt.Sprint(i))
			}); err != nil {
				b.Fatal(err)
			}
		}
	})

	commitAll := func(round string) {
		for i, r := range farm {
			r.Commit(b, map[string]string{fmt.Sprintf("docs/s00/page%03d.md", i): "# changed " + round}, "change "+round)
		}
	}
	b.Run("update/docweave", func(b *testing.B) {
		root := b.TempDir()
		if err := inParallel(repos, workers, func(i int) error {
			_, err := Acquire(ctx, Request{URL: urls[i], Depth: 1, Dir: filepath.Join(root, fmt.Sprint(i)), Strategy: StrategyFresh}, policy)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		n := 0
		for b.Loop() {
			b.StopTimer()
			n++
			commitAll(fmt.Sprint("dw", n))
			b.StartTimer()
			if err := inParallel(repos, workers, func(i int) error {
				_, err := Acquire(ctx, Request{URL: urls[i], Depth: 1, Dir: filepath.Join(root, fmt.Sprint(i)), Strategy: StrategyUpdate}, policy)
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("update/git-cli", func(b *testing.B) {
		root := b.TempDir()
		if err := inParallel(repos, workers, func(i int) error {
			return gitCLI(root, "clone", "-q", "--depth", "1", urls[i], fmt.Sprint(i))
		}); err != nil {
			b.Fatal(err)
		}
		n := 0
		for b.Loop() {
			b.StopTimer()
			n++
			commitAll(fmt.Sprint("cli", n))
			b.StartTimer()
			if err := inParallel(repos, workers, func(i int) error {
				dir := filepath.Join(root, fmt.Sprint(i))
				if err := gitCLI(dir, "fetch", "-q", "--depth", "1", "origin", "main"); err != nil {
					return err
				}
				return gitCLI(dir, "reset", "-q", "--hard", "FETCH_HEAD")
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
