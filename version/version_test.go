package version

import "testing"

func TestStringPrefersLinkTimeVersion(t *testing.T) {
	if String() == "" {
		t.Fatal("empty version")
	}
	old := Version
	defer func() { Version = old }()
	Version = "v9.9.9"
	if String() != "v9.9.9" {
		t.Fatalf("got %s", String())
	}
}
