package giteatest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/docweave/docweave/internal/dirlock"
)

// Version is the Gitea release the tests run against.
const Version = "1.26.0"

// module is Gitea's Go module; its source carries the options/, templates/
// and public/ folders a Gitea built without bindata reads at run time.
const module = "code.gitea.io/gitea@v" + Version

// buildTags are the tags Gitea's own release builds use for SQLite.
const buildTags = "sqlite sqlite_unlock_notify"

var (
	installOnce sync.Once
	installDir  string
	installErr  error
)

// install returns the folder holding the gitea binary and its static
// folders, building them on first use on this machine. The folder is
// <user cache>/docweave-gitea/v<Version>, shared by every test binary and
// every checkout: a file lock serialises the processes that find it
// missing, and the binary is moved in last, so a folder with a binary is
// complete. DOCWEAVE_GITEA_CACHE overrides the parent folder.
func install(t testing.TB) string {
	t.Helper()
	installOnce.Do(func() { installDir, installErr = ensureBuilt(t) })
	if installErr != nil {
		t.Fatalf("giteatest: Gitea %s: %v", Version, installErr)
	}
	return installDir
}

func cacheRoot() (string, error) {
	if dir := os.Getenv("DOCWEAVE_GITEA_CACHE"); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find a cache folder (set DOCWEAVE_GITEA_CACHE): %w", err)
	}
	return filepath.Join(dir, "docweave-gitea"), nil
}

func ensureBuilt(t testing.TB) (string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "v"+Version)
	if _, err := os.Stat(filepath.Join(dir, "gitea")); err == nil {
		return dir, nil
	}
	unlock, err := dirlock.Lock(dir + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(dir, "gitea")); err == nil {
		return dir, nil // another process built it while this one waited
	}
	start := time.Now()
	t.Logf("giteatest: building Gitea %s into %s (once per machine; a few minutes)", Version, dir)
	if err := build(dir); err != nil {
		return "", err
	}
	t.Logf("giteatest: built Gitea %s in %s", Version, time.Since(start).Round(time.Second))
	return dir, nil
}

// build downloads Gitea's module source, copies it to a writable folder
// (the module cache is read-only), builds it there and installs the binary
// and the static folders into dir.
func build(dir string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the go command is needed to build Gitea from its module source: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(filepath.Dir(dir), "build-")
	if err != nil {
		return fmt.Errorf("make a build folder: %w", err)
	}
	defer os.RemoveAll(stage)
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false", "CGO_ENABLED=1")

	var out bytes.Buffer
	dl := exec.Command(goBin, "mod", "download", "-json", module)
	dl.Dir, dl.Env, dl.Stdout, dl.Stderr = stage, env, &out, &out
	if err := dl.Run(); err != nil {
		return fmt.Errorf("go mod download %s: %w\n%s", module, err, out.Bytes())
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out.Bytes(), &info); err != nil || info.Dir == "" {
		return fmt.Errorf("go mod download %s gave no source folder: %v %s", module, err, out.Bytes())
	}
	src := filepath.Join(stage, "src")
	if err := copyTree(info.Dir, src); err != nil {
		return fmt.Errorf("copy Gitea's source: %w", err)
	}
	out.Reset()
	gb := exec.Command(goBin, "build", "-tags", buildTags, "-ldflags", "-X main.Version="+Version, "-o", filepath.Join(stage, "gitea"), ".")
	gb.Dir, gb.Env, gb.Stdout, gb.Stderr = src, env, &out, &out
	if err := gb.Run(); err != nil {
		return fmt.Errorf("go build Gitea (needs a C compiler for SQLite: Debian package gcc): %w\n%s", err, out.Bytes())
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, sub := range []string{"options", "templates", "public"} {
		if err := os.Rename(filepath.Join(src, sub), filepath.Join(dir, sub)); err != nil {
			return fmt.Errorf("install Gitea's %s: %w", sub, err)
		}
	}
	return os.Rename(filepath.Join(stage, "gitea"), filepath.Join(dir, "gitea"))
}

// copyTree copies the regular files and folders under from to to, every
// one writable by its owner.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		outF, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(outF, in); err != nil {
			outF.Close()
			return err
		}
		return outF.Close()
	})
}
