package main

import (
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/report"
)

// fixes are, per issue code caused by a repository's entry in the file,
// the key to correct and how.
var fixes = map[string]struct{ key, how string }{
	gitx.CodeNotFound:       {"url", "no repository at this URL: check it for typos, and that the credentials may read it (forges answer \"not found\" for a private repository too); `docweave validate --remote` lists what each remote has"},
	gitx.CodeAuth:           {"auth", "the remote refused the credentials: check them"},
	gitx.CodeBranchNotFound: {"branch", "no such branch or tag: `docweave validate --remote` lists the remote's branches and tags"},
}

// configFix points a repository's issue at its place in the file:
// "site.yaml:9 repositories[2].url: <how to fix>", or "" when the issue is
// not one the file's entry causes or the repository is not in the file
// (discovered on a forge).
func configFix(cfg *config.Config, is report.Issue) string {
	f, ok := fixes[is.Code]
	if !ok || cfg == nil {
		return ""
	}
	key := cfg.RepositoryKey(is.Repository)
	if key == "" {
		return ""
	}
	key += "." + f.key
	if where := cfg.Where(key); where != "" {
		key = where + " " + key
	}
	return key + ": " + f.how
}
