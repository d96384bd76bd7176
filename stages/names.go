package stages

// The stages' names, as operators write them on command lines (`docweave
// stage render`) and as they appear in logs, metrics and stage.failed
// records. Each stage package registers itself under its name; code that
// must name a stage without running it (a build that leaves link
// verification out, a dashboard) uses these rather than importing the
// stage.
const (
	Discover      = "discover"
	Clone         = "clone"
	Join          = "join"
	Assemble      = "assemble"
	Render        = "render"
	Finish        = "finish"
	VerifyLinks   = "verifylinks"
	PublishReload = "publishreload"
)

// Former names of renamed stages, still accepted on command lines and in
// configuration (with a warning), so existing deployments keep running:
// prune recorded the fan-in and pruned nothing (clone prunes), and
// fingerprint closes the whole build, of which the fingerprint is one
// figure. A process that starts a renamed stage takes over the durable
// consumer of the former name where it stood (docs/scale-out.md, "Upgrading").
const (
	FormerJoin   = "prune"
	FormerFinish = "fingerprint"
)
