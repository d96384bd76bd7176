package farm

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// GitServer serves every repository of a farm over Git's smart HTTP
// protocol on 127.0.0.1 and a random port, by running the real
// `git http-backend` (as forges do behind their web servers), so clones in
// a benchmark pay the same protocol costs as clones from a forge.
type GitServer struct {
	root     string
	listener net.Listener
	server   *http.Server
}

// ServeGit starts a server for the repositories under root (the farm's
// Spec.Dir); repository <name> is cloned from URL(name). Later commits are
// served at once.
func ServeGit(root string) (*GitServer, error) {
	backend, err := httpBackendPath()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("git server root %s: %w", root, err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("git server: listen on loopback: %w", err)
	}
	h := &cgi.Handler{
		Path: backend,
		Root: "/",
		Env: []string{
			"GIT_PROJECT_ROOT=" + abs,
			"GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_CONFIG_NOSYSTEM=1",
			"PATH=" + os.Getenv("PATH"),
		},
	}
	s := &GitServer{root: abs, listener: l, server: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = s.server.Serve(l) }()
	return s, nil
}

// URL is the clone URL of repository name: http://127.0.0.1:port/<name>/.git
// (git http-backend serves a working tree's .git directory at this path).
func (s *GitServer) URL(name string) string {
	return "http://" + s.listener.Addr().String() + "/" + name + "/.git"
}

// Close stops the server.
func (s *GitServer) Close() error { return s.server.Close() }

// httpBackendPath finds git-http-backend in git's exec path; it is part of
// git but often not on PATH.
func httpBackendPath() (string, error) {
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		return "", fmt.Errorf("git server: find git's exec path (is git installed?): %w", err)
	}
	p := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("git server: %s not found; install the package that provides git-http-backend (Debian: git)", p)
		}
		return "", fmt.Errorf("git server: %w", err)
	}
	return p, nil
}
