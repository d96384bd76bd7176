package model

import "testing"

func TestDefaultVersion(t *testing.T) {
	if v, ok := DefaultVersion(Repository{Name: "gamma", Versions: []Version{{Name: "v1", Slug: "v1"}, {Name: "main", Slug: "main", Default: true}}}); !ok || v.Name != "main" {
		t.Errorf("defaultVersion = %v, %v", v, ok)
	}
	if _, ok := DefaultVersion(Repository{Name: "delta"}); ok {
		t.Error("a repository without versions has a default version")
	}
}
