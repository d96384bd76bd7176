package site

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFrontPageCards: each repository's card shows its configured
// description (else its root page's first paragraph), its page count and
// its last update; a unit's address does not change with them, so a new
// commit time or description re-renders the front page only.
func TestFrontPageCards(t *testing.T) {
	opts := fixtureOptions(t, newFixtureProject(t), &bytes.Buffer{})
	opts.Repositories = slices.Clone(opts.Repositories)
	opts.Repositories[0].Description = "Alpha, in its own words."
	opts.Repositories[1].Updated = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	if _, err := Render(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	home := between(readPublished(t, opts.PublishDir, "index.html"), `<ul class="repositories"`, "</ul>")
	alpha := between(home, `<a href="/docs/alpha/">`, "</li>")
	beta := between(home, `<a href="/docs/beta/">`, "</li>")
	for _, c := range []struct{ card, want string }{
		{alpha, `<p class="card-description">Alpha, in its own words.</p>`},
		{alpha, `4 pages`},
		{beta, `<p class="card-description">Everything about Beta. Start with getting started.</p>`},
		{beta, `Updated <time datetime="2026-11-20T09:30:00Z">20 November 2026</time>`},
	} {
		if !strings.Contains(c.card, c.want) {
			t.Errorf("card lacks %s:\n%s", c.want, c.card)
		}
	}
	if strings.Contains(alpha, "Updated") {
		t.Errorf("alpha's card shows an update time it does not have:\n%s", alpha)
	}
	plain := slices.Clone(fixtureRepos)
	if UnitAddress(opts.Generator, opts.Repositories, "beta", "t") != UnitAddress(opts.Generator, plain, "beta", "t") {
		t.Error("a description or commit time changes a unit's address")
	}
}
