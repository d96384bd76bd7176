// Package docstree turns a repository checkout into the files that may be
// published: it prunes non-documentation entries from the workspace and
// collects the documentation roots, treating the repository as untrusted
// input (no .git, no symbolic links out of the repository, no names that
// escape the content directory). The clone stage uses it right after
// acquisition, so only a content-addressed tree — never a checkout path —
// leaves the process that cloned.
package docstree
