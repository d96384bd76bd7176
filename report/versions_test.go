package report

import (
	"reflect"
	"testing"
)

func TestVersionsSummariseBuiltAndFailedVersionsInSwitcherOrder(t *testing.T) {
	rs := []Repository{
		{Name: "b", Status: "ok"}, // not versioned: not summarised
		{Name: "a", Version: "v1.0.0", VersionRank: 2, Status: "failed"},
		{Name: "a", Version: "main", VersionRank: 0, DefaultVersion: true, Status: "ok"},
		{Name: "a", Version: "v1.1.0", VersionRank: 1, Status: "ok"},
	}
	SortRepositories(rs)
	if rs[0].Version != "main" || rs[1].Version != "v1.1.0" || rs[2].Version != "v1.0.0" || rs[3].Name != "b" {
		t.Fatalf("order %+v", rs)
	}
	got := VersionsOf(rs)
	want := []RepositoryVersions{{Repository: "a", Default: "main", Built: []string{"main", "v1.1.0"}, Failed: []string{"v1.0.0"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("versions %+v, want %+v", got, want)
	}
	if VersionsOf([]Repository{{Name: "b", Status: "ok"}}) != nil {
		t.Fatal("a build without versioning has a versions section")
	}
}
