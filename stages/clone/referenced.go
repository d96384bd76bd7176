package clone

import (
	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/docstree"
)

// referencedBy is the acquisition's question about a repository's
// referenced files: once its documentation roots are checked out, the
// files their pages show that the roots do not publish (see
// docstree.Referenced) are checked out too, from the same commit, and
// collected into the tree.
func referencedBy(cfg *config.Config, repo config.Repository) func(dir string) []string {
	roots, policy := repo.DocPaths(), docstree.PolicyFor(cfg, repo)
	return func(dir string) []string { return docstree.Referenced(dir, roots, policy) }
}
