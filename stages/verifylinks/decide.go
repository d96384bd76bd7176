package verifylinks

import (
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
)

// shouldVerify decides whether a build's site is verified, and says why,
// from the request's flags that site.rendered carries:
//   - a direct build: only when it asked (--verify-links), whatever
//     enabled says, because the person at the command line asked;
//   - a daemon build: when daemon.link_verification.enabled is true.
func shouldVerify(in *events.SiteRendered, lv config.LinkVerification) (bool, string) {
	switch {
	case in.Direct && in.VerifyLinks:
		return true, "direct build with --verify-links"
	case in.Direct:
		return false, "direct build without --verify-links"
	case !lv.Enabled:
		return false, "daemon.link_verification.enabled is false"
	default:
		return true, "daemon build"
	}
}
