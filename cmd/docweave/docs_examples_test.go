package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docweave/docweave/bench/cli"
	"github.com/docweave/docweave/internal/gittest"
)

// The command lines the documentation shows must hold: every `docweave …`
// (or `./docweave …`, `go run ./cmd/docweave …`) line in a shell block of
// README.md and docs/*.md names a command and flags the binary accepts, and
// the ones that run offline — init, validate, build, version — run, block
// by block in order, in a fresh directory, and succeed. `$EDITOR FILE`
// stands for the reader's edit: it points the file's repositories at a
// local fixture repository. A line that needs a broker, a cluster or minutes
// (daemon, stage, serve, links tail, ingress, bench run) is only checked
// against the flags.

// docExample is one documented command line.
type docExample struct {
	file  string
	line  int
	args  []string // after the program name
	block int      // examples of one code block share a directory
}

// shellBlock matches the start of a fenced block of shell commands.
var shellBlock = regexp.MustCompile("^```(sh|bash|shell|console)\\s*$")

// docExamples reads the command lines of a Markdown file: lines of shell
// blocks and of indented blocks, with "$ " prompts, trailing comments and
// continuation lines handled, split at "&&".
func docExamples(t *testing.T, path string) ([]docExample, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []docExample
	var edits []string
	lines := strings.Split(string(data), "\n")
	block, inShell, inFence := 0, false, false
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		trimmed := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(trimmed, "```") && !inFence:
			inFence, inShell = true, shellBlock.MatchString(trimmed)
			block++
			continue
		case strings.HasPrefix(trimmed, "```"):
			inFence, inShell = false, false
			continue
		case inFence && !inShell:
			continue
		case !inFence && !strings.HasPrefix(raw, "    "):
			if trimmed != "" {
				block++ // an indented block ends at text
			}
			continue
		}
		start := i + 1
		for strings.HasSuffix(trimmed, "\\") && i+1 < len(lines) {
			i++
			trimmed = strings.TrimSuffix(trimmed, "\\") + " " + strings.TrimSpace(lines[i])
		}
		trimmed = strings.TrimPrefix(trimmed, "$ ")
		if c := strings.Index(trimmed, " #"); c >= 0 {
			trimmed = strings.TrimSpace(trimmed[:c])
		}
		for _, part := range strings.Split(trimmed, "&&") {
			words := shellWords(strings.TrimSpace(part))
			if len(words) >= 2 && words[0] == "$EDITOR" {
				edits = append(edits, fmt.Sprintf("%d:%s", block, words[1]))
				out = append(out, docExample{file: path, line: start, args: []string{"$EDITOR", words[1]}, block: block})
				continue
			}
			if args, ok := docweaveArgs(words); ok {
				out = append(out, docExample{file: path, line: start, args: args, block: block})
			}
		}
	}
	return out, edits
}

// docweaveArgs returns the arguments of a docweave command line.
func docweaveArgs(words []string) ([]string, bool) {
	switch {
	case len(words) >= 1 && (words[0] == "docweave" || words[0] == "./docweave"):
		return words[1:], true
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/docweave":
		return words[3:], true
	}
	return nil, false
}

// shellWords splits a command line the way a shell does for the simple
// lines documentation shows: words, with single and double quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	quote, inWord := rune(0), false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// offline reports whether a command runs without a broker, a network or
// minutes of work.
func offline(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		if a == "--help" || a == "-h" {
			return true
		}
	}
	switch args[0] {
	case "init", "validate", "build", "version":
		return true
	}
	return false
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestDocumentedCommandLines(t *testing.T) {
	root := repoRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var all []docExample
	for _, f := range files {
		ex, _ := docExamples(t, f)
		all = append(all, ex...)
	}
	if len(all) < 20 {
		t.Fatalf("found only %d documented command lines; is the reader broken?", len(all))
	}

	// Every line names a command and flags the binary accepts.
	for _, ex := range all {
		if ex.args[0] == "$EDITOR" {
			continue
		}
		rel, _ := filepath.Rel(root, ex.file)
		root, args := newRootCommand(), ex.args
		if args[0] == "bench" { // docweave bench runs docweave-bench with the rest
			root, args = cli.NewCommand("docweave-bench"), args[1:]
		}
		cmd, rest, err := root.Find(args)
		if err != nil {
			t.Errorf("%s:%d: docweave %s: %v", rel, ex.line, strings.Join(ex.args, " "), err)
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s:%d: docweave %s: %v", rel, ex.line, strings.Join(ex.args, " "), err)
			continue
		}
		if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
			t.Errorf("%s:%d: docweave %s: %v", rel, ex.line, strings.Join(ex.args, " "), err)
		}
	}

	// The offline ones run, block by block, in a directory of their own.
	fixture := gittest.NewRepo(t, map[string]string{
		"docs/_index.md": "---\ntitle: Fixture\n---\nThe documented commands build this.\n",
		"docs/guide.md":  "---\ntitle: Guide\n---\nA page.\n",
	})
	ran := 0
	dirs := map[string]string{}
	initialises := map[string]bool{} // blocks that write their own configuration
	for _, ex := range all {
		rel, _ := filepath.Rel(root, ex.file)
		if ex.args[0] == "init" {
			initialises[fmt.Sprintf("%s#%d", rel, ex.block)] = true
		}
	}
	for _, ex := range all {
		if ex.args[0] != "$EDITOR" && !offline(ex.args) {
			continue
		}
		rel, _ := filepath.Rel(root, ex.file)
		key := fmt.Sprintf("%s#%d", rel, ex.block)
		dir, ok := dirs[key]
		if !ok {
			dir = exampleDir(t, root, rel, fixture.FileURL(), initialises[key])
			dirs[key] = dir
		}
		if ex.args[0] == "$EDITOR" {
			pointAtFixture(t, filepath.Join(dir, ex.args[1]), fixture.FileURL())
			continue
		}
		res := run(t, dir, []string{"PWD=" + dir}, append(ex.args, "--log-format", "json")...)
		t.Logf("%s:%d: docweave %s: exit %d", rel, ex.line, strings.Join(ex.args, " "), res.code)
		if res.code != 0 {
			t.Errorf("%s:%d: docweave %s exited %d:\n%s%s", rel, ex.line, strings.Join(ex.args, " "), res.code, res.stdout, lastLines(res.stderr, 10))
		}
		ran++
	}
	if ran < 4 {
		t.Fatalf("only %d documented command lines ran", ran)
	}
	// What the README says its first command writes.
	readme := ""
	for key, dir := range dirs {
		if strings.HasPrefix(key, "README.md#") {
			readme = dir
		}
	}
	if readme == "" {
		t.Fatal("the README's quick start did not run")
	}
	for _, f := range []string{"_site/public/index.html", "_site/public/docs/docweave/user-guide/index.html", "_site/build-report.json"} {
		if _, err := os.Stat(filepath.Join(readme, filepath.FromSlash(f))); err != nil {
			t.Errorf("README quick start: %s is missing: %v", f, err)
		}
	}
}

// exampleDir prepares the directory a documentation block's commands run
// in. The README's quick start runs in a Git checkout holding docweave's
// docs/ folder and docweave.example.yaml, as the project root does; other
// blocks get the fixture's configuration as docweave.yaml, unless they
// write one with init.
func exampleDir(t *testing.T, root, rel, fixtureURL string, initialises bool) string {
	t.Helper()
	dir := t.TempDir()
	if rel == "README.md" {
		copyTree(t, filepath.Join(root, "docs"), filepath.Join(dir, "docs"))
		data, err := os.ReadFile(filepath.Join(root, "docweave.example.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "docweave.example.yaml"), string(data))
		gittest.Git(t, dir, "init", "-q", "-b", "main")
		gittest.Git(t, dir, "add", ".")
		gittest.Git(t, dir, "-c", "user.name=docs", "-c", "user.email=docs@example.org", "commit", "-qm", "docs")
		return dir
	}
	if initialises {
		return dir
	}
	writeFile(t, filepath.Join(dir, "docweave.yaml"), fmt.Sprintf("repositories:\n  - name: fixture\n    url: %q\noutput:\n  directory: ./site\n", fixtureURL))
	return dir
}

// pointAtFixture is the reader's edit of a starter configuration: its
// repositories become the fixture.
func pointAtFixture(t *testing.T, path, fixtureURL string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("$EDITOR %s: %v", path, err)
	}
	text := string(data)
	start := strings.Index(text, "\nrepositories:")
	if start < 0 {
		t.Fatalf("$EDITOR %s: no repositories section", path)
	}
	end := strings.Index(text[start+1:], "\n# ")
	if end < 0 {
		t.Fatalf("$EDITOR %s: the repositories section does not end", path)
	}
	text = text[:start] + fmt.Sprintf("\nrepositories:\n  - name: fixture\n    url: %q\n", fixtureURL) + text[start+1+end:]
	writeFile(t, path, text)
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The reader finds what it should: shell and indented blocks, prompts,
// comments, continuations, "&&" and $EDITOR.
func TestDocExamplesReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.md")
	writeFile(t, path, "Text.\n\n```sh\n$ docweave init -c a.yaml   # starter\n$EDITOR a.yaml\ndocweave stage --stages a,b \\\n  -c a.yaml\n```\n\n```yaml\ndocweave: not a command\n```\n\n    go build -o docweave ./cmd/docweave && ./docweave bench run --quick\n")
	got, _ := docExamples(t, path)
	want := [][]string{{"init", "-c", "a.yaml"}, {"$EDITOR", "a.yaml"}, {"stage", "--stages", "a,b", "-c", "a.yaml"}, {"bench", "run", "--quick"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if strings.Join(got[i].args, " ") != strings.Join(want[i], " ") {
			t.Errorf("example %d: %q, want %q", i, got[i].args, want[i])
		}
	}
	if got[0].block != got[2].block || got[3].block == got[0].block {
		t.Errorf("blocks %d %d %d", got[0].block, got[2].block, got[3].block)
	}
}
