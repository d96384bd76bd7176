package docstree

import (
	"os"
	"path/filepath"

	"github.com/docweave/docweave/pipeline/artifact"
)

// Sites written for other tools keep part of their structure in a file at
// the repository root, outside the documentation roots: MkDocs' mkdocs.yml
// gives the sidebar's order and titles (nav). docweave carries such a file
// into the documentation tree, under ToolConfigDir, as data the site reads
// (never as a page or a published file, and nothing in it runs).

// ToolConfigDir is where a repository's tool configuration files sit in
// its documentation tree. It starts with a dot, so the site neither
// renders nor publishes it.
const ToolConfigDir = ".docweave-repo"

// ToolConfigFiles are the files carried, by their names at the root.
var ToolConfigFiles = []string{"mkdocs.yml", "mkdocs.yaml", ".gitbook.yaml"}

// maxToolConfigBytes bounds a carried file: a site's configuration, not
// content.
const maxToolConfigBytes = 256 << 10

// toolConfigs returns the tool configuration files at the root of the
// checkout in repoDir, as tree entries under ToolConfigDir: regular files
// only (a link could point anywhere), at most maxToolConfigBytes each.
func toolConfigs(repoDir string) []artifact.File {
	var out []artifact.File
	for _, name := range ToolConfigFiles {
		p := filepath.Join(repoDir, name)
		info, err := os.Lstat(p)
		if err != nil || !info.Mode().IsRegular() || info.Size() > maxToolConfigBytes {
			continue
		}
		out = append(out, artifact.File{Rel: ToolConfigDir + "/" + name, Source: p})
	}
	return out
}
