// Package discovery finds repositories on forges: it lists the
// organisations (GitHub, Forgejo/Gitea) or groups (GitLab) of every
// forges[] entry through their REST APIs — following pagination, waiting
// for rate limits, retrying transient failures — takes the repositories
// that have one of the documentation paths, names them uniquely next to
// the configured repositories, optionally registers docweave's webhook on
// them, and stores the result. Stages never call a forge: they read the
// result through the configuration (config.Config.AllRepositories), which
// Apply and Follow keep current in every process.
package discovery
