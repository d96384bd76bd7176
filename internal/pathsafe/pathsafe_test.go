package pathsafe

import "testing"

func TestName(t *testing.T) {
	for _, bad := range []string{"", ".", "..", ".git", ".GIT", ".Git", "git~1", "GIT~1", ".git.", ".git ", ".git::$INDEX_ALLOCATION",
		".g\u200cit", "a\x00b", "a\nb", "a\x7fb", "a\u0085b", "a\\b", "a/b", "\xff"} {
		if Name(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, ok := range []string{"a.md", ".gitignore", ".github", "git", "gitx", ".gitkeep", "ünïcode.md", "a b.md", "..a", "a.."} {
		if why := Name(ok); why != "" {
			t.Errorf("%q refused: %s", ok, why)
		}
	}
}

func TestRel(t *testing.T) {
	for _, bad := range []string{"/etc/passwd", "a/../b", "a//b", "a/.GIT/config", "a/", "x\x01/y"} {
		if Rel(bad) == "" {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, ok := range []string{"a.md", "guide/setup.md", ".github/x.md"} {
		if why := Rel(ok); why != "" {
			t.Errorf("%q refused: %s", ok, why)
		}
	}
}

func TestShown(t *testing.T) {
	if got := Shown("docs/bad\x01name.md"); got != `"docs/bad\x01name.md"` {
		t.Fatalf("Shown = %s", got)
	}
	if got := Shown("docs/ünï.md"); got != "docs/ünï.md" {
		t.Fatalf("Shown = %s", got)
	}
}
