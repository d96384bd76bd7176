package gitx

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"

	"github.com/docweave/docweave/internal/gittest"
)

// benchRepo generates a documentation-like repository: files Markdown pages
// of about 2 KiB in 50 directories, with three commits of history so that a
// shallow clone has something to leave out.
func benchRepo(b *testing.B, files int) *gittest.Repo {
	b.Helper()
	page := strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n", 36)
	r := gittest.NewRepo(b, map[string]string{"README.md": "bench"})
	for round := 0; round < 3; round++ {
		batch := make(map[string]string, files)
		for i := 0; i < files; i++ {
			batch[fmt.Sprintf("docs/section-%02d/page-%04d.md", i%50, i)] = fmt.Sprintf("# Page %d (round %d)\n\n%s", i, round, page)
		}
		r.Commit(b, batch, fmt.Sprintf("round %d", round))
	}
	return r
}

// BenchmarkShallowCloneFile compares a depth-1 clone over file:// by
// Acquire, by go-git's PlainClone alone, and by the git command line.
func BenchmarkShallowCloneFile(b *testing.B) {
	r := benchRepo(b, 2000)
	url := r.FileURL()
	parent := b.TempDir()
	// Wall time on a shared 2-core machine is noisy; the user and system
	// CPU time of this process and its children (git-upload-pack, the git
	// CLI) are reported alongside as user-ms/op and sys-ms/op.
	run := func(b *testing.B, clone func(dir string) error) {
		var user, sys time.Duration
		for i := 0; i < b.N; i++ {
			dir := filepath.Join(parent, fmt.Sprintf("clone-%d", i))
			startUser, startSys := cpuTime()
			if err := clone(dir); err != nil {
				b.Fatal(err)
			}
			endUser, endSys := cpuTime()
			user += endUser - startUser
			sys += endSys - startSys
			b.StopTimer()
			if err := os.RemoveAll(dir); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(user.Milliseconds())/float64(b.N), "user-ms/op")
		b.ReportMetric(float64(sys.Milliseconds())/float64(b.N), "sys-ms/op")
	}
	b.Run("gitx.Acquire", func(b *testing.B) {
		run(b, func(dir string) error {
			_, err := Acquire(context.Background(), Request{URL: url, Dir: dir, Depth: 1}, RetryPolicy{})
			return err
		})
	})
	b.Run("go-git.PlainClone", func(b *testing.B) {
		run(b, func(dir string) error {
			_, err := git.PlainClone(dir, false, &git.CloneOptions{URL: url, Depth: 1, SingleBranch: true, Tags: git.NoTags})
			return err
		})
	})
	b.Run("git-cli", func(b *testing.B) {
		gitPath := gittest.RequireGit(b)
		run(b, func(dir string) error {
			cmd := exec.Command(gitPath, "clone", "-q", "--depth", "1", "--single-branch", "--no-tags", url, dir)
			cmd.Env = gittest.GitEnv()
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("git clone: %v: %s", err, out)
			}
			return nil
		})
	})
}

// cpuTime is the user and system CPU time of this process and its
// waited-for children so far.
func cpuTime() (user, sys time.Duration) {
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			continue
		}
		user += time.Duration(ru.Utime.Nano())
		sys += time.Duration(ru.Stime.Nano())
	}
	return user, sys
}
