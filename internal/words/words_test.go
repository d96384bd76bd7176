package words

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Plural(0, "page"), "0 pages"},
		{Plural(1, "page"), "1 page"},
		{Plural(2, "page"), "2 pages"},
		{Count(1, "repository", "repositories"), "1 repository"},
		{Count(3, "repository", "repositories"), "3 repositories"},
		{Count(1, "time", "times"), "1 time"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
