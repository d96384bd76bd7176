package daemon

import (
	"os"
	"path/filepath"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/httpsrv/admin"
)

// servedSite says whether the docs server has a site (its public folder
// holds a home page) and which of the recent builds (newest first)
// published it: the newest that succeeded or rendered in part. The status
// page uses it so that a failed latest build does not read as "no site".
func servedSite(cfg *config.Config, builds []admin.BuildStatus) (bool, string) {
	if _, err := os.Stat(filepath.Join(cfg.Output.Directory, "public", "index.html")); err != nil {
		return false, ""
	}
	for _, b := range builds {
		if b.State == admin.StateSuccess || b.State == admin.StatePartial {
			return true, b.ID
		}
	}
	return true, ""
}
