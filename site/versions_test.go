package site

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestValidateVersionsRefusesBadVersionsNamingThem(t *testing.T) {
	ok := func() []Version {
		return []Version{
			{Name: "main", Slug: "main", Default: true, Commit: gammaMainCommit},
			{Name: "feature/x", Slug: "feature-x", EditURL: "https://forge.example.org/o/r/edit/feature/x/docs/{path}"},
			{Name: "v1.1.0", Slug: "v1.1.0", Tag: true},
		}
	}
	if err := validateVersions(ok()); err != nil {
		t.Fatalf("valid versions refused: %v", err)
	}
	if err := validateVersions(nil); err != nil {
		t.Fatalf("no versions refused: %v", err)
	}
	cases := []struct {
		name   string
		change func(vs []Version) []Version
		want   []string
	}{
		{"empty name", func(vs []Version) []Version { vs[1].Name = " "; return vs }, []string{"Versions[1]", "Name is empty"}},
		{"empty slug", func(vs []Version) []Version { vs[1].Slug = ""; return vs }, []string{"Versions[1] (feature/x)", "Slug is empty"}},
		{"slash in slug", func(vs []Version) []Version { vs[1].Slug = "feature/x"; return vs }, []string{"Versions[1] (feature/x)", `Slug "feature/x"`, "one URL path segment"}},
		{"dot slug", func(vs []Version) []Version { vs[1].Slug = ".."; return vs }, []string{`Slug ".."`, `not starting with "."`}},
		{"hidden slug", func(vs []Version) []Version { vs[1].Slug = "_x"; return vs }, []string{`Slug "_x"`}},
		{"space in slug", func(vs []Version) []Version { vs[1].Slug = "a b"; return vs }, []string{`Slug "a b"`}},
		{"duplicate slug", func(vs []Version) []Version { vs[2].Slug = "MAIN"; return vs }, []string{"Versions[2] (v1.1.0)", `Slug "MAIN" is also used by version main`}},
		{"no default", func(vs []Version) []Version { vs[0].Default = false; return vs }, []string{"0 marked Default", "exactly one default"}},
		{"two defaults", func(vs []Version) []Version { vs[2].Default = true; return vs }, []string{"2 marked Default"}},
		{"bad commit", func(vs []Version) []Version { vs[0].Commit = "main~1"; return vs }, []string{"Versions[0] (main)", `Commit "main~1"`, "hexadecimal"}},
		{"edit URL without placeholder", func(vs []Version) []Version { vs[1].EditURL = "https://forge.example.org/edit"; return vs }, []string{"Versions[1] (feature/x)", "EditURL", "{path}"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := validateVersions(c.change(ok()))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range c.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestValidateVersionsKeepsEditURLCredentialsOutOfErrors(t *testing.T) {
	err := validateVersions([]Version{{Name: "main", Slug: "main", Default: true, EditURL: "https://bob:s3cret@forge.example.org/edit/{path}"}})
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "without user credentials") {
		t.Errorf("error = %v; want a refusal that does not repeat the password", err)
	}
}

func TestRenderRefusesBadVersionsNamingTheRepository(t *testing.T) {
	logs := &bytes.Buffer{}
	opts := Options{
		ProjectDir:   newFixtureProject(t),
		PublishDir:   filepath.Join(t.TempDir(), "public"),
		Generator:    fixtureGenerator(),
		Repositories: []Repository{{Name: "alpha", ContentPath: "alpha", Versions: []Version{{Name: "main", Slug: "main"}}}},
		Logger:       zerolog.New(logs),
	}
	_, err := Render(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "site: Repositories[0] (alpha): Versions: 0 marked Default") {
		t.Errorf("Render error = %v; want one naming Repositories[0] (alpha) and its missing default version", err)
	}
}
