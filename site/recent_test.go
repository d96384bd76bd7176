package site

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// TestFrontPageListsThePagesUpdatedRecently: after a first build every
// page changed at its repository's commit time; in a second build where
// one page of beta changed (and beta's commit is newer), that page heads
// "Recently updated", and the pages that did not change keep their
// earlier time instead of taking the new commit's.
func TestFrontPageListsThePagesUpdatedRecently(t *testing.T) {
	t1 := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	t2 := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	repos := slices.Clone(fixtureRepos)
	repos[0].Updated, repos[1].Updated = t1, t1
	assembleWith := func(units []AssembledUnit, remembered AssembleResult) (AssembleResult, string) {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "site")
		res, err := Assemble(context.Background(), AssembleOptions{WorkDir: t.TempDir(), PublishDir: dir,
			Generator: fixtureGenerator(), Repositories: repos, Units: units, Remembered: remembered.URLs, Logger: zerolog.Nop()})
		if err != nil {
			t.Fatal(err)
		}
		return res, between(readPublished(t, dir, "index.html"), `<ul class="recent"`, "</ul>")
	}
	first, recent := assembleWith(fixtureUnits(t, "", "1"), AssembleResult{})
	if n := strings.Count(recent, "<li>"); n == 0 || !strings.Contains(recent, `<time datetime="2026-11-01T08:00:00Z">1 November 2026</time>`) {
		t.Fatalf("first build's recent list (%d entries):\n%s", n, recent)
	}

	repos[1].Updated = t2
	body := "# Beta Handbook\n\nEverything about Beta. Start with [getting started](usage/getting-started.md).\n\nNew words.\n"
	_, recent = assembleWith(fixtureUnits(t, body, "2"), first)
	items := strings.Split(recent, "<li>")[1:]
	if len(items) == 0 || !strings.Contains(items[0], `href="/docs/beta/"`) || !strings.Contains(items[0], "2026-11-25") {
		t.Fatalf("the changed page does not head the list:\n%s", recent)
	}
	if n := strings.Count(recent, "2026-11-25"); n != 1 {
		t.Errorf("%d pages carry the new commit's date, want the one that changed:\n%s", n, recent)
	}
}
