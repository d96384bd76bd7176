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
	Prune         = "prune"
	Assemble      = "assemble"
	Render        = "render"
	Fingerprint   = "fingerprint"
	VerifyLinks   = "verifylinks"
	PublishReload = "publishreload"
)
