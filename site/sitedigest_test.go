package site

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/bench/farm"
	"github.com/docweave/docweave/site/internal/assembly"
	"github.com/docweave/docweave/site/internal/searchindex"
)

// updateDigest rewrites testdata/golden/digest-*.json. The digests were
// first taken from the renderer that built the whole site in one Hugo
// build (commit a420131); a site rendered in parts must match them. Run
// with it only after an intended change to what pages show.
var updateDigest = flag.Bool("update-site-digest", false, "rewrite the site digests in testdata/golden")

// siteDigest is what "the same site" means: the same set of published
// files, the same main content (the <main> element) on every HTML page,
// and the same search entries (in any order; each as its URL and a hash
// of the whole entry).
type siteDigest struct {
	Files  []string          `json:"files"`
	Main   map[string]string `json:"main"`
	Search []string          `json:"search"`
}

var mainElement = regexp.MustCompile(`(?s)<main[ >].*</main>`)

// digestSite reads a published site. The redirect map (assembly.RedirectsFile) is
// left out: the one-piece renderers, of today and of the golden's commit,
// write none (redirects_test.go checks it). The search index is read back
// into its entries (searchindex.go writes it in pieces named by content,
// the golden's commit wrote one file of entries).
func digestSite(t *testing.T, dir string) siteDigest {
	t.Helper()
	d := siteDigest{Main: map[string]string{}}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == assembly.RedirectsFile {
			return nil
		}
		if strings.HasPrefix(rel, "search/") && rel != searchindex.ManifestFile {
			return nil // the index's pieces: their entries are read from the manifest
		}
		d.Files = append(d.Files, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(rel, ".html"):
			main := mainElement.Find(data)
			sum := sha256.Sum256(main)
			d.Main[rel] = hex.EncodeToString(sum[:8])
		case rel == searchindex.ManifestFile:
			entries, err := searchindex.Decode(func(rel string) ([]byte, error) {
				return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
			})
			if err != nil {
				return fmt.Errorf("search index: %w", err)
			}
			for _, e := range entries {
				var v map[string]any
				_ = json.Unmarshal(e, &v)
				canon, _ := json.Marshal(v) // keys sorted
				sum := sha256.Sum256(canon)
				d.Search = append(d.Search, fmt.Sprintf("%v %s", v["url"], hex.EncodeToString(sum[:8])))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(d.Files)
	sort.Strings(d.Search)
	return d
}

// checkDigest compares a site with its golden digest, naming every file
// that differs.
func checkDigest(t *testing.T, name string, got siteDigest) {
	t.Helper()
	golden := filepath.Join("testdata", "golden", "digest-"+name+".json")
	if *updateDigest {
		data, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(golden, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run `go test ./site -run SameSite -update-site-digest` to create it)", err)
	}
	var want siteDigest
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	gotFiles, wantFiles := strings.Join(got.Files, "\n"), strings.Join(want.Files, "\n")
	if gotFiles != wantFiles {
		t.Errorf("%s: the set of published files differs:\n%s", name, setDiff(want.Files, got.Files))
	}
	var differ []string
	for file, sum := range want.Main {
		if g, ok := got.Main[file]; ok && g != sum {
			differ = append(differ, file)
		}
	}
	sort.Strings(differ)
	if len(differ) > 0 {
		t.Errorf("%s: the main content of %d pages differs: %s", name, len(differ), strings.Join(differ[:min(len(differ), 10)], ", "))
	}
	if strings.Join(got.Search, "\n") != strings.Join(want.Search, "\n") {
		t.Errorf("%s: the search entries differ:\n%s", name, setDiff(want.Search, got.Search))
	}
}

// setDiff lists what only one of two sorted lists holds.
func setDiff(want, got []string) string {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	n := 0
	for _, s := range want {
		if !g[s] && n < 20 {
			fmt.Fprintf(&b, "  missing: %.200s\n", s)
			n++
		}
	}
	for _, s := range got {
		if !w[s] && n < 40 {
			fmt.Fprintf(&b, "  extra:   %.200s\n", s)
			n++
		}
	}
	return b.String()
}

// farmProject lays out a small bench farm (the repositories `docweave
// bench` generates, with tags, categories, weights, images and links) as a
// project, and returns it with its repositories.
func farmProject(t *testing.T, repos, pages int) (string, []Repository) {
	t.Helper()
	dir := t.TempDir()
	generated, err := farm.Generate(farm.Spec{Dir: filepath.Join(dir, "farm"), Repos: repos, Pages: pages})
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "project")
	var list []Repository
	for _, r := range generated {
		if err := os.CopyFS(filepath.Join(project, "content", r.Name), os.DirFS(filepath.Join(r.Path, "docs"))); err != nil {
			t.Fatal(err)
		}
		list = append(list, Repository{Name: r.Name, ContentPath: r.Name, EditURL: "https://github.com/example/" + r.Name + "/edit/main/docs/{path}"})
	}
	return project, list
}

// TestSameSiteAsOnePiece renders the theme tests' fixtures and a bench
// farm in parts (Render) and in one Hugo build (RenderWhole), in the same
// run, and compares both with each other and with the digest of the site
// the one-piece renderer of commit a420131 made of the same content.
func TestSameSiteAsOnePiece(t *testing.T) {
	render := func(t *testing.T, opts Options, whole bool) siteDigest {
		t.Helper()
		logs := &bytes.Buffer{}
		opts.Logger = zerolog.New(logs)
		opts.PublishDir = filepath.Join(t.TempDir(), "public")
		do := Render
		if whole {
			do = RenderWhole
		}
		if _, err := do(context.Background(), opts); err != nil {
			t.Fatalf("render (whole %v): %v\n%s", whole, err, logs)
		}
		return digestSite(t, opts.PublishDir)
	}
	check := func(t *testing.T, name string, opts func(t *testing.T) Options) {
		parts := render(t, opts(t), false)
		checkDigest(t, name, parts)
		if *updateDigest {
			return
		}
		whole := render(t, opts(t), true)
		// The Markdown copies and llms files are made after a unit renders
		// (mdcopies.go), from its HTML, compared below, and the sitemap
		// by the assembly; a render in one piece, a benchmark's, makes
		// none of them.
		parts.Files = slices.DeleteFunc(slices.Clone(parts.Files), func(f string) bool {
			name := path.Base(f)
			return name == "index.md" || name == "llms.txt" || name == "llms-full.txt" || f == "sitemap.xml" || f == "robots.txt"
		})
		if a, b := strings.Join(parts.Files, "\n"), strings.Join(whole.Files, "\n"); a != b {
			t.Errorf("%s: parts and one piece publish other files:\n%s", name, setDiff(whole.Files, parts.Files))
		}
		for file, sum := range whole.Main {
			if parts.Main[file] != sum {
				t.Errorf("%s: the main content of %s differs between parts and one piece", name, file)
			}
		}
		if a, b := strings.Join(parts.Search, "\n"), strings.Join(whole.Search, "\n"); a != b {
			t.Errorf("%s: the search entries differ between parts and one piece:\n%s", name, setDiff(whole.Search, parts.Search))
		}
	}
	t.Run("fixture", func(t *testing.T) {
		check(t, "fixture", func(t *testing.T) Options { return fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{}) })
	})
	t.Run("versioned", func(t *testing.T) {
		check(t, "versioned", func(t *testing.T) Options {
			project := filepath.Join(t.TempDir(), "project")
			if err := os.CopyFS(project, os.DirFS("testdata/versioned")); err != nil {
				t.Fatal(err)
			}
			return Options{ProjectDir: project, Generator: fixtureGenerator(), Repositories: versionedRepos()}
		})
	})
	t.Run("farm", func(t *testing.T) {
		project, repos := farmProject(t, 4, 12)
		check(t, "farm", func(t *testing.T) Options {
			return Options{ProjectDir: project, Generator: fixtureGenerator(), Repositories: repos}
		})
	})
}
