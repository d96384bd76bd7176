package config

import "testing"

func TestRepositoryLookupAndDocPaths(t *testing.T) {
	c := &Config{Repositories: []Repository{{Name: "a"}, {Name: "b", Paths: []string{"guides", "docs"}}}}
	if r, ok := c.Repository("b"); !ok || r.DocPaths()[0] != "guides" {
		t.Fatalf("lookup b: %+v %v", r, ok)
	}
	if r, _ := c.Repository("a"); len(r.DocPaths()) != 1 || r.DocPaths()[0] != "docs" {
		t.Fatalf("default paths of a: %v", r.DocPaths())
	}
	if _, ok := c.Repository("zzz"); ok {
		t.Fatal("unknown repository found")
	}
}
