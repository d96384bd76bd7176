// Package httpsrv holds docweave's HTTP servers, one sub-package each (docs,
// webhook, admin, livereload, ingress), and what they share: binding every
// port before any server starts, and serving with sensible timeouts.
package httpsrv
