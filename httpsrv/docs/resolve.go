package docs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"
)

// The render stage swaps sites with two renames (public → public.old, then
// staging → public), so for a moment there is no public directory. A request
// that lands in that moment waits for the new one instead of getting the
// placeholder; the wait is bounded in case a swap failed half-way.
const (
	swapGrace     = 100 * time.Millisecond
	swapPollEvery = time.Millisecond
)

// openSite opens the public directory as an os.Root for one request. It
// returns an error satisfying errors.Is(err, fs.ErrNotExist) when no site is
// rendered.
func openSite(publicDir string) (*os.Root, error) {
	root, err := os.OpenRoot(publicDir)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return root, err
	}
	if _, oldErr := os.Lstat(publicDir + ".old"); oldErr != nil {
		return nil, err // no swap in progress: the site is simply absent
	}
	deadline := time.Now().Add(swapGrace)
	for time.Now().Before(deadline) {
		time.Sleep(swapPollEvery)
		root, err = os.OpenRoot(publicDir)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return root, err
		}
	}
	return nil, err
}

// siteName turns a URL path into a name inside the site: cleaned, relative,
// "." for the root. Cleaning removes ".." lexically; os.Root then refuses
// whatever still points outside (symbolic links).
func siteName(urlPath string) string {
	if !strings.HasPrefix(urlPath, "/") {
		urlPath = "/" + urlPath
	}
	name := strings.TrimPrefix(path.Clean(urlPath), "/")
	if name == "" {
		return "."
	}
	return name
}

// openFile opens name inside root if it is a regular file or a directory;
// anything else (a device, a socket, a fifo) is treated as absent. Errors
// from os.Root for names escaping the site come back unchanged.
func openFile(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	fi, err := root.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, nil, fmt.Errorf("%s: not a regular file or directory: %w", name, fs.ErrNotExist)
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, err
	}
	// Stat the open file: the name may have been replaced between the calls.
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// lookupResult is where a URL path leads inside one site: an open file, a
// redirect to the directory form of the path, or nothing (missing says why).
type lookupResult struct {
	name     string
	file     *os.File
	info     fs.FileInfo
	redirect bool
	missing  error
}

// lookup resolves a URL path the way a static host does: files as they are,
// directories through their index.html once the path ends in "/" (and by a
// redirect before that), no directory listings, no file with a trailing "/".
// A directory's index.md, its Markdown copy, stands in for index.html when
// markdown is set and it exists. The caller closes file.
func lookup(root *os.Root, urlPath string, markdown bool) lookupResult {
	name := siteName(urlPath)
	f, fi, err := openFile(root, name)
	if err != nil {
		return lookupResult{name: name, missing: err}
	}
	slash := strings.HasSuffix(urlPath, "/")
	if !fi.IsDir() {
		if slash {
			f.Close()
			return lookupResult{name: name, missing: fmt.Errorf("%s is a file, asked for as a directory: %w", name, fs.ErrNotExist)}
		}
		return lookupResult{name: name, file: f, info: fi}
	}
	f.Close()
	if !slash {
		return lookupResult{name: name, redirect: true}
	}
	if markdown {
		index := path.Join(name, "index.md")
		if f, fi, err := openFile(root, index); err == nil && !fi.IsDir() {
			return lookupResult{name: index, file: f, info: fi}
		} else if err == nil {
			f.Close()
		}
	}
	index := path.Join(name, "index.html")
	f, fi, err = openFile(root, index)
	if err != nil {
		return lookupResult{name: index, missing: err}
	}
	if fi.IsDir() {
		f.Close()
		return lookupResult{name: index, missing: fmt.Errorf("%s is a directory: %w", index, fs.ErrNotExist)}
	}
	return lookupResult{name: index, file: f, info: fi}
}

// siteReplaced reports whether root is no longer the directory at publicDir:
// a swap happened since the request opened it (or is under way).
func siteReplaced(root *os.Root, publicDir string) bool {
	opened, err := root.Stat(".")
	if err != nil {
		return true // removed under us
	}
	current, err := os.Stat(publicDir)
	if err != nil {
		return true
	}
	return !os.SameFile(opened, current)
}
