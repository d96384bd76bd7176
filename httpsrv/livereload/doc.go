// Package livereload is the daemon's live-reload server: browsers showing
// the documentation keep a server-sent-events stream open on GET /sse, and
// the publish-reload stage calls Hub.Publish after every publish so they
// reload the page.
//
// The hub never lets a client slow the publisher down: every client has a
// small queue, and a client whose queue is full is dropped (its browser
// reconnects and, through Last-Event-ID, still learns about the reload it
// missed). Heartbeat comments keep idle connections open through proxies.
// The package binds no port and keeps no global state; the daemon owns the
// listener and calls Close on shutdown to end the streams.
package livereload
