package verifylinks

import (
	"regexp"
	"testing"
)

func TestRequestKeyIsAValidBucketKeyForAnyBuildID(t *testing.T) {
	valid := regexp.MustCompile(`^[-/_=.a-zA-Z0-9]+$`)
	seen := map[string]bool{}
	for _, id := range []string{"20260501t100000-ab12cd34", "b1", "a build with spaces/and*wildcards>"} {
		k := requestKey(id)
		if !valid.MatchString(k) {
			t.Errorf("%q → %q is not a valid key", id, k)
		}
		if seen[k] {
			t.Errorf("%q collides", id)
		}
		seen[k] = true
	}
}
