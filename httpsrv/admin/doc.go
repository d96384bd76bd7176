// Package admin is the daemon's admin server: liveness and readiness for
// the orchestrator, Prometheus metrics for the monitoring system, a small
// JSON API to trigger a build and follow it, and a /status page for people.
//
// The package does not bind a port or read the configuration file. The
// daemon binds every port before any server starts and passes New the few
// values it needs (Options); the daemon's state reaches the handlers only
// through the Backend interface, so the server can be tested, and reused,
// without a pipeline behind it. The endpoints are documented in
// docs/daemon-admin.md.
package admin
