// Package webhook is the daemon's webhook server: the endpoints that forges
// (GitHub, GitLab, Forgejo/Gitea) and scripts call when documentation may
// have changed, so the site is rebuilt within seconds of a push instead of
// at the next scheduled sync.
//
// Every request is authenticated before its body is interpreted: an HMAC
// signature or a shared token, compared in constant time, with a secret
// from daemon.webhooks. An unsigned or wrongly signed request never reaches
// the build trigger. A signed push to the configured branch of a configured
// repository becomes one call of Options.Trigger; pings are answered, every
// other event is acknowledged and ignored, so a forge's delivery log shows
// exactly why nothing was built.
//
// The package builds an http.Handler from plain options. It binds no port
// and keeps no global state: the daemon binds every port first and then
// serves this handler, and tests serve it on a loopback port.
package webhook
