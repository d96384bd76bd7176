// Package preview builds and keeps pull-request previews: the live site
// with one repository at another ref (a branch, a tag, a request's head),
// assembled into a directory of its own beside the live site and served
// under /previews/<id>/.
//
// A preview renders one unit and nothing else: every other unit's output
// is the live site's, as the saved state records it (reused from the
// artifact store, placed by hard links), and the assembly of what spans
// units runs once for the preview. The live site is never touched. What
// the preview changes — pages added, changed and removed, and links it
// breaks in its own repository and in others — is worked out against the
// live site's units and URLs.
//
// The Manager keeps the previews (a record on disk each, so a restart
// keeps them), builds one at a time, removes the oldest beyond
// daemon.previews.max and those older than daemon.previews.ttl, and
// removes only directories it created.
package preview
