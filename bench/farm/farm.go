// Package farm makes repository farms for benchmarks: N Git repositories of
// M realistic Markdown pages each (front matter with tags, headings, code
// blocks, tables, links between pages), so that every measurement of
// docweave runs on the same kind of content and anyone can rerun it.
package farm

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Spec says what to generate.
type Spec struct {
	Dir   string // where the repositories go: <Dir>/repo00 …
	Repos int
	Pages int
}

// Repo is one generated repository.
type Repo struct {
	Name string
	Path string
}

// Generate creates the farm with the git command line and returns its
// repositories. Content is deterministic: the same Spec gives the same
// files (commit hashes differ with time).
func Generate(s Spec) ([]Repo, error) {
	var repos []Repo
	for r := 0; r < s.Repos; r++ {
		name := fmt.Sprintf("repo%02d", r)
		dir := filepath.Join(s.Dir, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := writePages(dir, name, s.Pages); err != nil {
			return nil, err
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

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=farm", "GIT_AUTHOR_EMAIL=farm@example.invalid",
		"GIT_COMMITTER_NAME=farm", "GIT_COMMITTER_EMAIL=farm@example.invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, out)
	}
	return nil
}

func writePages(dir, repo string, pages int) error {
	files := map[string]string{
		"README.md":      "# " + repo + "\n\nSource code lives here; documentation is under docs/.\n",
		"src/main.go":    "package main\n\nfunc main() {}\n",
		"docs/_index.md": fmt.Sprintf("---\ntitle: %s\n---\n\nThe documentation of %s.\n", repo, repo),
	}
	sections := []string{"guide", "reference", "howto", "concepts"}
	for p := 0; p < pages; p++ {
		section := sections[p%len(sections)]
		rel := fmt.Sprintf("docs/%s/page%03d.md", section, p)
		files[rel] = page(repo, section, p, pages)
	}
	for rel, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func page(repo, section string, p, pages int) string {
	next := (p + 1) % pages
	nextSection := []string{"guide", "reference", "howto", "concepts"}[next%4]
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: \"%s %s page %d\"\ntags: [%s, %s, bench]\ncategories: [%s]\nkeywords: [k%d]\n---\n\n", repo, section, p, section, repo, section, p%7)
	fmt.Fprintf(&b, "# %s page %d\n\nThis page documents part %d of %s. ", section, p, p, repo)
	b.WriteString("It has several paragraphs of prose so that rendering does real work, ")
	b.WriteString("with *emphasis*, **strong text**, `inline code` and a [link to the next page](")
	fmt.Fprintf(&b, "../../%s/page%03d/).\n\n", nextSection, next)
	for h := 1; h <= 3; h++ {
		fmt.Fprintf(&b, "## Step %d\n\nDo the thing number %d. See [the project site](https://example.com/%s/%d) for details.\n\n", h, h, repo, p)
		fmt.Fprintf(&b, "```go\nfunc step%d() error {\n\treturn nil // %s\n}\n```\n\n", h, repo)
	}
	b.WriteString("| Option | Default | Meaning |\n|---|---|---|\n")
	for r := 0; r < 5; r++ {
		fmt.Fprintf(&b, "| opt%d | %d | what option %d does |\n", r, r*10, r)
	}
	b.WriteString("\n> A note: pages link to each other and to external URLs.\n")
	return b.String()
}
