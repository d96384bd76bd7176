package versions

import (
	"context"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/internal/gittest"
)

// listing is the repository, listed over Git smart HTTP: branches
// main, release-1.x, feature/x; tags v1.0.0, v1.1.0 (annotated),
// v2.0.0-rc1, not-a-version.
func listing(t *testing.T) ([]gitx.RemoteRef, string) {
	t.Helper()
	repo := gittest.NewRepo(t, map[string]string{"docs/index.md": "# v1.0.0"})
	repo.Tag(t, "v1.0.0", false)
	repo.Commit(t, map[string]string{"docs/index.md": "# v1.1.0"}, "1.1")
	repo.Tag(t, "v1.1.0", true)
	repo.Branch(t, "release-1.x")
	repo.Commit(t, map[string]string{"docs/index.md": "# rc"}, "rc")
	repo.Tag(t, "v2.0.0-rc1", false)
	repo.Tag(t, "not-a-version", false)
	repo.Branch(t, "feature/x")
	srv := gittest.NewHTTPServer(t, gittest.HTTPOptions{})
	url := srv.Add(t, "versions", repo)
	refs, def, err := gitx.ListRefs(context.Background(), gitx.Request{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	if def != "main" {
		t.Fatalf("default branch %q", def)
	}
	for _, r := range refs {
		if r.Name == "v1.1.0" && r.Commit != strings.TrimSpace(repo.Git(t, "rev-parse", "v1.1.0^{commit}")) {
			t.Fatal("annotated tag not peeled to its commit")
		}
	}
	return refs, def
}

func names(vs []Version) string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name)
	}
	return strings.Join(out, " ")
}

func TestSelect(t *testing.T) {
	refs, def := listing(t)
	base := config.Default().Versioning
	cases := []struct {
		name string
		edit func(*config.Versioning)
		want string
	}{
		{"branches and tags, newest first", func(*config.Versioning) {}, "main v2.0.0-rc1 v1.1.0 v1.0.0 feature/x release-1.x not-a-version"},
		{"branches only", func(v *config.Versioning) { v.Strategy = "branches_only" }, "main feature/x release-1.x"},
		{"tags only keeps the default branch", func(v *config.Versioning) { v.Strategy = "tags_only" }, "main v2.0.0-rc1 v1.1.0 v1.0.0 not-a-version"},
		{"tag pattern", func(v *config.Versioning) { v.TagPatterns = []string{"v*"} }, "main v2.0.0-rc1 v1.1.0 v1.0.0 feature/x release-1.x"},
		{"branch pattern", func(v *config.Versioning) {
			v.BranchPatterns = []string{"release-*", "main"}
			v.TagPatterns = []string{"v1.*"}
		}, "main v1.1.0 v1.0.0 release-1.x"},
		{"cap keeps the newest", func(v *config.Versioning) { v.MaxVersionsPerRepo = 3 }, "main v2.0.0-rc1 v1.1.0"},
		{"default branch only", func(v *config.Versioning) { v.DefaultBranchOnly = true; v.Strategy = "tags_only" }, "main"},
	}
	for _, c := range cases {
		v := base
		v.BranchPatterns = append([]string(nil), base.BranchPatterns...)
		c.edit(&v)
		if got := names(Select(refs, def, v)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	got := Select(refs, def, base)
	if got[0].Ref != "refs/heads/main" || !got[0].Default || got[1].Ref != "refs/tags/v2.0.0-rc1" || !got[1].Tag {
		t.Fatalf("references %+v %+v", got[0], got[1])
	}
}

func TestSemverOrder(t *testing.T) {
	a, _ := parseSemver("v2.0.0")
	rc, _ := parseSemver("v2.0.0-rc1")
	old, _ := parseSemver("1.9.12")
	if !a.greater(rc) || !rc.greater(old) || old.greater(a) {
		t.Fatal("semantic version order wrong")
	}
	if _, ok := parseSemver("not-a-version"); ok {
		t.Fatal("parsed a non-version")
	}
}

func TestSlugIsOneSafeSegment(t *testing.T) {
	cases := map[string]string{
		"main": "main", "v1.1.0": "v1.1.0", "feature/x": "feature-x", "release-1.x": "release-1.x",
		"a b?c#d": "a-b-c-d", "..": "version", "_draft": "draft", "é": "version",
	}
	for in, want := range cases {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSelectGivesEveryVersionItsOwnSlug(t *testing.T) {
	refs := []gitx.RemoteRef{{Name: "main"}, {Name: "Main"}, {Name: "feature/x"}, {Name: "feature-x"}, {Name: "feature-x", Tag: true}}
	got := Select(refs, "main", config.Versioning{Strategy: "branches_and_tags"})
	seen := map[string]string{}
	for _, v := range got {
		folded := strings.ToLower(v.Slug)
		if other, dup := seen[folded]; dup {
			t.Fatalf("%s and %s share slug %q (ignoring case)", other, v.Ref, v.Slug)
		}
		seen[folded] = v.Ref
	}
	if len(seen) != 5 {
		t.Fatalf("versions %+v", got)
	}
}
