package linkcheck

import (
	"reflect"
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// A link by id from a version leads to the target's version of that name
// when it declares the id, else to the target's default version; an id
// nobody declares is missing with the closest ids.
func TestXrefsFollowTheLinkingPagesVersion(t *testing.T) {
	repos := []model.Repository{
		{Name: "app", ContentPath: "app", Versions: []model.Version{{Name: "v2", Slug: "v2"}, {Name: "v3", Slug: "v3", Default: true}}},
		{Name: "cli", ContentPath: "cli", Versions: []model.Version{{Name: "v1", Slug: "v1", Default: true}, {Name: "v2", Slug: "v2"}}},
	}
	units := []Facts{
		{Unit: "app/v2", Facts: []byte(`{"links":[{"file":"app/v2/a.md","line":3,"dest":"xref:flags","url":"/docs/_xref/flags/v2"}]}`)},
		{Unit: "app/v3", Facts: []byte(`{"links":[{"file":"app/v3/a.md","line":3,"dest":"xref:flags","url":"/docs/_xref/flags/v3"},` +
			`{"file":"app/v3/a.md","line":5,"dest":"xref:flag","url":"/docs/_xref/flag/v3"}]}`)},
		{Unit: "cli/v1", Facts: []byte(`{"xrefIds":{"flags":"/docs/cli/v1/flags/"}}`)},
		{Unit: "cli/v2", Facts: []byte(`{"xrefIds":{"flags":"/docs/cli/v2/reference/flags/"}}`)},
	}
	redirects, missing, err := Xrefs(units, repos, "/")
	if err != nil {
		t.Fatal(err)
	}
	want := []XrefRedirect{{From: "/docs/_xref/flags/v2/", To: "/docs/cli/v2/reference/flags/"}, {From: "/docs/_xref/flags/v3/", To: "/docs/cli/v1/flags/"}}
	if !reflect.DeepEqual(redirects, want) {
		t.Errorf("redirects %+v, want %+v", redirects, want)
	}
	if len(missing) != 1 || missing[0].ID != "flag" || missing[0].Line != 5 || !reflect.DeepEqual(missing[0].Closest, []string{"flags"}) {
		t.Errorf("missing %+v, want flag at line 5, closest flags", missing)
	}
}

// The folder of the redirect pages of links by id is the one repository
// name the configuration refuses and discovery never gives, so no
// repository's pages share it.
func TestXrefFolderIsTheReservedRepositoryName(t *testing.T) {
	if links.XrefDir != "docs/"+config.ReservedRepositoryName {
		t.Fatalf("links.XrefDir %q is not docs/ + config.ReservedRepositoryName %q", links.XrefDir, config.ReservedRepositoryName)
	}
}
