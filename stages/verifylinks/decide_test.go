package verifylinks

import (
	"testing"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
)

// The decision follows the request's flags on site.rendered: a direct
// build is verified only when it asked, whatever enabled says; a daemon
// build when enabled is true.
func TestShouldVerifyFollowsTheRequestsFlags(t *testing.T) {
	for _, c := range []struct {
		direct, verifyLinks, enabled, want bool
	}{
		{direct: true, verifyLinks: true, enabled: false, want: true},
		{direct: true, verifyLinks: false, enabled: true, want: false},
		{direct: false, enabled: true, want: true},
		{direct: false, enabled: false, want: false},
	} {
		in := &events.SiteRendered{Direct: c.direct, VerifyLinks: c.verifyLinks}
		got, why := shouldVerify(in, config.LinkVerification{Enabled: c.enabled})
		if got != c.want || why == "" {
			t.Errorf("%+v: verify %v (%q), want %v", c, got, why, c.want)
		}
	}
}
