package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docweave/docweave/site/internal/assembly"
	"github.com/rs/zerolog"
)

// fixtureUnits renders the fixture's units, beta's index page replaced by
// betaIndex, and returns them ready for an assembly, each with an ID made
// of its name and a version label.
func fixtureUnits(t *testing.T, betaIndex, label string) []AssembledUnit {
	t.Helper()
	var units []AssembledUnit
	for _, unit := range []string{"alpha", "beta"} {
		project := filepath.Join(t.TempDir(), "project")
		if err := os.CopyFS(filepath.Join(project, "content", unit), os.DirFS(filepath.Join("testdata", "project", "content", unit))); err != nil {
			t.Fatal(err)
		}
		if unit == "beta" && betaIndex != "" {
			if err := os.WriteFile(filepath.Join(project, "content", "beta", "index.md"), []byte(betaIndex), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		published := filepath.Join(t.TempDir(), "public")
		res, err := RenderUnit(context.Background(), UnitOptions{ProjectDir: project, PublishDir: published,
			Generator: fixtureGenerator(), Repositories: fixtureRepos, Unit: unit, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		id := unit + "-1"
		if unit == "beta" {
			id = unit + "-" + label
		}
		units = append(units, AssembledUnit{Path: unit, ID: id, Facts: res.Facts, Search: res.Search,
			Place: func(_ context.Context, to string) error { return assembly.LinkTree(published, to) }})
	}
	return units
}

func assembleInto(t *testing.T, work, dir string, placed *PlacedSite, units []AssembledUnit) AssembleResult {
	t.Helper()
	res, err := Assemble(context.Background(), AssembleOptions{WorkDir: work, PublishDir: dir, Placed: placed,
		Generator: fixtureGenerator(), Repositories: fixtureRepos, Units: units, Logger: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAssemblyIntoAPlacedSiteChangesOnlyWhatDiffers: assembling again into
// a directory that holds the last site places only the unit that changed
// and renders the pages that span units only when what they show changed;
// either way the directory then equals a fresh assembly, and the placed
// description knows every file's hash.
func TestAssemblyIntoAPlacedSiteChangesOnlyWhatDiffers(t *testing.T) {
	work := t.TempDir()
	dir := filepath.Join(t.TempDir(), "site")
	first := assembleInto(t, work, dir, nil, fixtureUnits(t, "", "1"))
	if !first.Built || first.PlacedUnits != 2 {
		t.Fatalf("first assembly: built %v, placed %d units", first.Built, first.PlacedUnits)
	}
	check := func(what string, res AssembleResult, units []AssembledUnit) {
		t.Helper()
		freshDir := filepath.Join(t.TempDir(), "fresh")
		fresh := assembleInto(t, t.TempDir(), freshDir, nil, units)
		if !reflect.DeepEqual(res.Placed.FileHashes(), fresh.Placed.FileHashes()) {
			t.Errorf("%s: the placed files differ from a fresh assembly's", what)
		}
		if fmt.Sprint(digestSite(t, dir)) != fmt.Sprint(digestSite(t, freshDir)) {
			t.Errorf("%s: the site differs from a fresh assembly", what)
		}
		onDisk := filesOnDisk(t, dir)
		if fmt.Sprint(onDisk) != fmt.Sprint(res.Placed.FileHashes()) {
			t.Errorf("%s: the description does not match the directory", what)
		}
	}

	// A page's text changes (not its first paragraph, which is beta's
	// description on the front page): beta is placed again, nothing else.
	body := "# Beta Handbook\n\nEverything about Beta. Start with [getting started](usage/getting-started.md).\n\nBeta now welcomes you.\n"
	units := fixtureUnits(t, body, "2")
	second := assembleInto(t, work, dir, first.Placed, units)
	if second.Built || second.PlacedUnits != 1 {
		t.Fatalf("a changed page body: built %v, placed %d units; want no build and one unit", second.Built, second.PlacedUnits)
	}
	page, err := os.ReadFile(filepath.Join(dir, "docs", "beta", "index.html"))
	if err != nil || !strings.Contains(string(page), "Beta now welcomes you.") {
		t.Fatalf("beta's new page is not in place: %v", err)
	}
	check("a changed page body", second, units)

	// A title changes: the pages that span units are rendered again.
	units = fixtureUnits(t, "---\ntitle: Beta renamed\ntags: [fresh]\n---\nBeta now welcomes you.\n", "3")
	third := assembleInto(t, work, dir, second.Placed, units)
	if !third.Built || third.PlacedUnits != 1 {
		t.Fatalf("a changed title and tag: built %v, placed %d units", third.Built, third.PlacedUnits)
	}
	if _, err := os.Stat(filepath.Join(dir, "tags", "fresh", "index.html")); err != nil {
		t.Fatalf("the new term page is missing: %v", err)
	}
	check("a changed title and tag", third, units)

	// Back to the first units: the first assembly's pages are taken again.
	units = fixtureUnits(t, "", "1")
	fourth := assembleInto(t, work, dir, third.Placed, units)
	if fourth.Built || fourth.PlacedUnits != 1 {
		t.Fatalf("back to the first site: built %v, placed %d units; want the kept pages and beta", fourth.Built, fourth.PlacedUnits)
	}
	if _, err := os.Stat(filepath.Join(dir, "tags", "fresh")); !os.IsNotExist(err) {
		t.Fatalf("the dropped term's directory stayed: %v", err)
	}
	check("back to the first site", fourth, units)
}

// TestAssemblyOverTheOneFileSearchIndex: a site an earlier docweave placed
// holds its search index in one file, which its description names by
// hash alone (PlacedSite.Search). The next assembly replaces it with the
// index in pieces and describes the directory as it then is; one without
// search removes it.
func TestAssemblyOverTheOneFileSearchIndex(t *testing.T) {
	work := t.TempDir()
	dir := filepath.Join(t.TempDir(), "site")
	units := fixtureUnits(t, "", "1")
	fresh := assembleInto(t, work, dir, nil, units)

	// asEarlier turns the placed site into one of the earlier docweave.
	old := []byte(`[{"title":"Old","url":"/docs/alpha/","repository":"alpha","section":"","tags":[],"text":"old"}]`)
	asEarlier := func(placed *PlacedSite) *PlacedSite {
		t.Helper()
		for _, f := range placed.SearchFiles {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(f.Rel))); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(dir, "search"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "search", "index.json"), old, 0o644); err != nil {
			t.Fatal(err)
		}
		legacy := *placed
		sum := sha256.Sum256(old)
		legacy.SearchFiles, legacy.Search = nil, hex.EncodeToString(sum[:])
		return &legacy
	}

	again := assembleInto(t, work, dir, asEarlier(fresh.Placed), units)
	onDisk := filesOnDisk(t, dir)
	if fmt.Sprint(onDisk) != fmt.Sprint(again.Placed.FileHashes()) {
		t.Errorf("the description does not match the directory:\n%v\n%v", onDisk, again.Placed.FileHashes())
	}
	if !reflect.DeepEqual(again.Placed.FileHashes(), fresh.Placed.FileHashes()) || again.Placed.Search != "" {
		t.Error("the site differs from the one assembled into an empty directory")
	}
	if got := searchEntriesJSON(t, dir); strings.Contains(got, `"Old"`) {
		t.Errorf("the old index's entries are still read: %s", got)
	}

	// Search turned off over the earlier docweave's site.
	gen := fixtureGenerator()
	gen.Params = map[string]any{"disableSearch": true}
	if _, err := Assemble(context.Background(), AssembleOptions{WorkDir: work, PublishDir: dir, Placed: asEarlier(again.Placed),
		Generator: gen, Repositories: fixtureRepos, Units: units, Logger: zerolog.Nop()}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "search")); !os.IsNotExist(err) {
		t.Errorf("the earlier one-file index stayed on a site without search: %v", err)
	}
}

// filesOnDisk lists every file below dir with the hash of its content, in
// the order of a walk, as a PlacedSite describes the files it placed.
func filesOnDisk(t *testing.T, dir string) []assembly.FileHash {
	t.Helper()
	var out []assembly.FileHash
	err := fs.WalkDir(os.DirFS(dir), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		sum := sha256.Sum256(data)
		out = append(out, assembly.FileHash{Rel: rel, Hash: hex.EncodeToString(sum[:])})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
