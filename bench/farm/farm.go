// Package farm makes repository farms for benchmarks: N Git repositories of
// M realistic Markdown pages each (front matter with tags, headings, code
// blocks, tables, images, links between pages and to external sites), so
// that every measurement of docweave runs on the same kind of content and
// anyone can rerun it. It also serves a farm over Git smart HTTP and
// answers the external links from loopback servers (see serve.go, links.go).
package farm

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// DefaultLinkBase is where external links point when Spec.LinkBases is
// empty: a reserved name, for farms that are rendered but never verified.
const DefaultLinkBase = "https://example.com"

// Spec says what to generate.
type Spec struct {
	Dir   string // where the repositories go: <Dir>/repo00 …
	Repos int
	Pages int
	// LinkBases are the external sites the pages link to, such as the
	// loopback link servers' base URLs; DefaultLinkBase when empty. Links
	// are spread over them, so a verifier sees several hosts.
	LinkBases []string
}

// Repo is one generated repository.
type Repo struct {
	Name string
	Path string
}

// Sections are the documentation sections of every generated repository;
// page p sits in Sections[p % len(Sections)].
var Sections = []string{"guide", "reference", "howto", "concepts"}

// Generate creates the farm with the git command line and returns its
// repositories. Content is deterministic: the same Spec gives the same
// files (commit hashes differ with time).
func Generate(s Spec) ([]Repo, error) {
	if s.Repos < 1 || s.Pages < 1 {
		return nil, fmt.Errorf("farm spec: repos and pages must be at least 1, got %d repositories × %d pages", s.Repos, s.Pages)
	}
	if len(s.LinkBases) == 0 {
		s.LinkBases = []string{DefaultLinkBase}
	}
	var repos []Repo
	for r := 0; r < s.Repos; r++ {
		name := RepoName(r)
		dir := filepath.Join(s.Dir, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("farm repository %s: %w", name, err)
		}
		if err := writePages(dir, name, s.Pages, s.LinkBases); err != nil {
			return nil, fmt.Errorf("farm repository %s: %w", name, err)
		}
		for _, args := range [][]string{
			{"init", "-q", "-b", "main"},
			{"add", "-A"},
			{"commit", "-q", "-m", "generated documentation"},
		} {
			if err := git(dir, args...); err != nil {
				return nil, err
			}
		}
		repos = append(repos, Repo{Name: name, Path: dir})
	}
	return repos, nil
}

// RepoName is the name of the r-th repository of a farm.
func RepoName(r int) string { return fmt.Sprintf("repo%02d", r) }

// Change commits a new edition of one page of repo, so a build sees that
// repository (and only it) changed; round makes each edition distinct.
func Change(repo Repo, round int) error {
	rel := filepath.Join("docs", "guide", "changes.md")
	body := fmt.Sprintf("---\ntitle: \"Changes\"\ntags: [changes]\n---\n\n# Changes\n\nEdition %d of %s.\n", round, repo.Name)
	if err := os.WriteFile(filepath.Join(repo.Path, rel), []byte(body), 0o644); err != nil {
		return fmt.Errorf("change %s: %w", repo.Name, err)
	}
	if err := git(repo.Path, "add", "-A"); err != nil {
		return err
	}
	return git(repo.Path, "commit", "-q", "-m", fmt.Sprintf("edition %d", round))
}

// gitEnv keeps the user's and the system's git configuration out of the
// farm, so every machine makes the same repositories.
func gitEnv() []string {
	return append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=farm", "GIT_AUTHOR_EMAIL=farm@example.invalid",
		"GIT_COMMITTER_NAME=farm", "GIT_COMMITTER_EMAIL=farm@example.invalid")
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, out)
	}
	return nil
}

func writePages(dir, repo string, pages int, linkBases []string) error {
	files := map[string][]byte{
		"README.md":             []byte("# " + repo + "\n\nSource code lives here; documentation is under docs/.\n"),
		"src/main.go":           []byte("package main\n\nfunc main() {}\n"),
		"docs/_index.md":        []byte(fmt.Sprintf("---\ntitle: %s\n---\n\nThe documentation of %s.\n", repo, repo)),
		"docs/images/flow.png":  diagramPNG(repo, 0),
		"docs/images/parts.png": diagramPNG(repo, 1),
	}
	for p := 0; p < pages; p++ {
		section := Sections[p%len(Sections)]
		rel := fmt.Sprintf("docs/%s/page%03d.md", section, p)
		files[rel] = []byte(page(repo, p, pages, linkBases))
	}
	for rel, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
