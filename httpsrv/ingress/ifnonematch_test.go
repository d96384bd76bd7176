package ingress

import (
	"strings"
	"testing"
)

const current = `"abc123"`

func TestIfNoneMatch(t *testing.T) {
	cases := []struct {
		name         string
		lines        []string
		match, valid bool
	}{
		{"absent", nil, false, true},
		{"exact", []string{`"abc123"`}, true, true},
		{"weak matches by weak comparison", []string{`W/"abc123"`}, true, true},
		{"star", []string{`*`}, true, true},
		{"star with spaces", []string{`  *  `}, true, true},
		{"list", []string{`"x", "abc123"`}, true, true},
		{"list without spaces", []string{`"x","abc123"`}, true, true},
		{"tabs and empty elements", []string{"\t,\"x\" ,\t, W/\"abc123\" ,"}, true, true},
		{"several lines", []string{`"x"`, `"abc123"`}, true, true},
		{"no match", []string{`"x", W/"y"`}, false, true},
		{"comma inside a tag", []string{`"abc,123"`}, false, true},
		{"tag containing the current one", []string{`"abc123x"`}, false, true},
		{"case matters", []string{`"ABC123"`}, false, true},
		{"lower-case w/ is not a weak prefix", []string{`w/"abc123"`}, false, false},
		{"unquoted", []string{`abc123`}, false, false},
		{"unterminated", []string{`"abc123`}, false, false},
		{"junk after a tag", []string{`"abc123" x`}, false, false},
		{"space inside a tag", []string{`"abc 123"`}, false, false},
		{"star with a tag", []string{`*, "abc123"`}, false, false},
		{"star on another line with a tag", []string{`*`, `"x"`}, false, false},
		{"control character", []string{"\"abc\x01\""}, false, false},
		{"empty line", []string{""}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			match, valid := ifNoneMatch(tc.lines, current)
			if match != tc.match || valid != tc.valid {
				t.Fatalf("ifNoneMatch(%q) = match %v valid %v, want %v %v", tc.lines, match, valid, tc.match, tc.valid)
			}
		})
	}
}

func TestIfNoneMatchDoesNotAllocate(t *testing.T) {
	lines := []string{`"a", W/"b", "abc123"`}
	if n := testing.AllocsPerRun(100, func() { ifNoneMatch(lines, current) }); n != 0 {
		t.Fatalf("%v allocations per call, want 0", n)
	}
}

// FuzzIfNoneMatch checks properties any correct parser has, on arbitrary
// input: it never panics; it only matches well-formed fields; a field that
// matches keeps matching when more tags are appended; and a well-formed
// field gets the same answer whether its elements arrive on one line or
// several.
func FuzzIfNoneMatch(f *testing.F) {
	for _, seed := range []string{`"abc123"`, `W/"abc123"`, `*`, `"a", "b"`, ` ,"x", W/"abc123",`, `"abc`, `W/`, `*,*`, "\"\x80\xff\""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, field string) {
		match, valid := ifNoneMatch([]string{field}, current)
		if match && !valid {
			t.Fatalf("matched a malformed field %q", field)
		}
		if !valid {
			return
		}
		if strings.TrimSpace(strings.Trim(field, ", \t")) != "*" && !strings.Contains(field, "*") {
			m2, v2 := ifNoneMatch([]string{field + `, "other"`}, current)
			if !v2 || m2 != match {
				t.Fatalf("appending a tag to %q changed the answer: %v/%v → %v/%v", field, match, valid, m2, v2)
			}
			m3, v3 := ifNoneMatch([]string{field, current}, current)
			if !v3 || !m3 {
				t.Fatalf("%q plus the current tag on a second line did not match", field)
			}
		}
	})
}
