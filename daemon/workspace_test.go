package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/internal/gittest"
)

// stores are the workspace folders that keep what builds keep on purpose,
// each with its own retention: the artifact store (after each build,
// pruned of what the site no longer uses and no later build used) and the
// embedded broker's streams (7 days). Everything else is a build's working
// folder.
var stores = map[string]bool{"artifacts": true, "nats": true}

// workspaceUse walks a workspace and returns the entries and bytes of the
// builds' working folders, and the bytes of the stores by store.
func workspaceUse(t testing.TB, root string) (entries int, bytes int64, storeBytes map[string]int64, tops []string) {
	storeBytes = map[string]int64{}
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed while walked (pruned, cleaned up)
		}
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		top, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		var size int64
		if info, err := d.Info(); err == nil && !d.IsDir() {
			size = info.Size()
		}
		if stores[top] {
			storeBytes[top] += size
			return nil
		}
		entries++
		bytes += size
		if strings.Count(filepath.ToSlash(rel), "/") <= 1 {
			tops = append(tops, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return entries, bytes, storeBytes, tops
}

// TestWorkspaceStaysFlatOverManyBuilds: 100 daemon builds, each of a new
// commit (so none is skipped), through the embedded broker. After each
// build the workspace's working folders (everything but the stores) are
// no larger than after the first builds: no folder per build stays. The
// artifact store stays flat too: each build's trees, outputs and lists go
// once no later build uses them (before, it kept every one for an hour:
// 100 quick builds grew it by about 5 MB each).
func TestWorkspaceStaysFlatOverManyBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("100 builds")
	}
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n\nEdition 0.\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Build.WorkspaceDir = t.TempDir()
	d := startDaemon(t, cfg)
	a := d.addrs
	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+a.Admin+"/ready"); return code == 200 })
	const builds, warmUp = 100, 5
	var baseEntries int
	var baseBytes, baseArtifacts int64
	for i := 1; i <= builds; i++ {
		repo.Commit(t, map[string]string{"docs/guide.md": fmt.Sprintf("# Guide\n\nEdition %d.\n", i)}, "edit")
		if st := waitBuild(t, a.Admin, trigger(t, a.Admin)); st.State != "success" {
			t.Fatalf("build %d: %s", i, st.State)
		}
		// Link verification goes on after a build is reported, in a
		// folder of its own: measure once it is gone (or a minute on; a
		// busy machine verifies slowly).
		// A measurement counts only when no verification folder was
		// there before it or after it: one may end while it is walked.
		n, b, sb, tops := workspaceUse(t, cfg.Build.WorkspaceDir)
		for settle := time.Now().Add(time.Minute); time.Now().Before(settle); time.Sleep(20 * time.Millisecond) {
			if verifying(cfg.Build.WorkspaceDir) {
				continue
			}
			n, b, sb, tops = workspaceUse(t, cfg.Build.WorkspaceDir)
			if !verifying(cfg.Build.WorkspaceDir) {
				break
			}
		}
		switch {
		case i == warmUp:
			baseEntries, baseBytes, baseArtifacts = n, b, sb["artifacts"]
			t.Logf("after %d builds: %d entries, %d bytes in working folders; stores %v", i, n, b, sb)
		case i > warmUp && (n > baseEntries || b > baseBytes+4096):
			t.Fatalf("after %d builds the working folders hold %d entries, %d bytes; after %d builds %d, %d: %v", i, n, b, warmUp, baseEntries, baseBytes, tops)
		case i == builds:
			t.Logf("after %d builds: %d entries, %d bytes in working folders; stores %v", i, n, b, sb)
		}
	}
	// The last build's pruning runs as it ends; give it a moment.
	var artifacts int64
	eventually(t, "the artifact store to be pruned", func() bool {
		_, _, sb, _ := workspaceUse(t, cfg.Build.WorkspaceDir)
		artifacts = sb["artifacts"]
		return artifacts <= 2*baseArtifacts
	})
	t.Logf("artifact store: %d bytes after %d builds, %d after %d", baseArtifacts, warmUp, artifacts, builds)
	if entries, _ := os.ReadDir(filepath.Join(cfg.Build.WorkspaceDir, "checkouts")); len(entries) != 0 {
		t.Fatalf("checkouts left: %d", len(entries))
	}
}

// TestDaemonStartRemovesAPartialCheckout: a daemon killed during a clone
// leaves the build's checkout half written (here: a pack being received)
// and a temporary folder of the render stage; the next start removes both
// and keeps what is not a build's (the cached checkouts, a file of the
// operator's).
func TestDaemonStartRemovesAPartialCheckout(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Build.WorkspaceDir = t.TempDir()
	root := cfg.Build.WorkspaceDir
	partial := filepath.Join(root, "checkouts", "20261127t101010.000001-0a0b0c0d+handbook")
	files := map[string]string{
		filepath.Join(partial, ".git", "HEAD"):                           "ref: refs/heads/main\n",
		filepath.Join(partial, ".git", "objects", "pack", "tmp_pack_x1"): "PACK",
		filepath.Join(root, "render", "put-1234", "facts.json"):          "{}",
		filepath.Join(root, "repos", "handbook", ".git", "HEAD"):         "ref: refs/heads/main\n",
		filepath.Join(root, "operator-notes.txt"):                        "mine",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := startDaemon(t, cfg)
	eventually(t, "/ready", func() bool { code, _ := get(t, "http://"+d.addrs.Admin+"/ready"); return code == 200 })
	for _, p := range []string{partial, filepath.Join(root, "render", "put-1234")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left after the start", p)
		}
	}
	for _, p := range []string{filepath.Join(root, "repos", "handbook", ".git", "HEAD"), filepath.Join(root, "operator-notes.txt")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
}

// TestDaemonWarnsOfAPathThatMatchesNothing: at start the daemon checks its
// repositories on their remotes and logs a paths entry that matches
// nothing with its key and the folders that do exist.
func TestDaemonWarnsOfAPathThatMatchesNothing(t *testing.T) {
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n", "manual/a.md": "# A\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Repositories[0].Paths = []string{"docs", "manuals"}
	cfg.Build.WorkspaceDir = t.TempDir()
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, Options{Log: zerolog.New(&logs).Level(zerolog.WarnLevel)}) }()
	defer func() { cancel(); <-done }()
	want := `documentation path \"manuals\" is not in the repository at main`
	eventually(t, "the warning", func() bool {
		s := logs.String()
		return strings.Contains(s, want) && strings.Contains(s, `folders at the top of the repository: docs, manual"`) &&
			strings.Contains(s, `"key":"repositories[0].paths[1]"`) && strings.Contains(s, `"code":"DOCS_PATH_MISSING"`)
	})
}

// verifying reports whether link verification of some build is under way
// in the workspace (its folder exists).
func verifying(root string) bool {
	entries, _ := os.ReadDir(filepath.Join(root, "verify"))
	return len(entries) > 0
}
