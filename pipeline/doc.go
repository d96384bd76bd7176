// Package pipeline runs docweave's stages over NATS JetStream, on a broker
// package natsbroker opens, scopes and provisions: it provisions each
// stage's durable consumer and runs any subset of registered stages with one
// acknowledgement policy: ack after side effects and the next publish, nak
// with delay for transient errors, terminate with a recorded reason for
// permanent ones. The runner itself only decodes, publishes and
// acknowledges; recovery from panics, dropping the work of stale builds,
// noting redeliveries, progress signals and observation are each a
// Middleware around the stage's handler. Stages never see NATS; they are
// functions of (context, event) that return events.
//
// "Build" has one meaning across docweave: one run of the pipeline, from
// build.requested to build.finished. direct.Build runs one; a build's
// report is report.Report, the daemon's record of it daemon.BuildRecord,
// its fan-in state a buildstate.BuildState in buildstate.FanIns, and the
// configuration's build section config.BuildSettings. NewStages (not
// Build) constructs stages. What the pipeline knows about builds (fan-ins,
// the saved site state) lives in package buildstate, and link
// verification's stream and cache bucket in package linkcheck; this
// package stays the generic runner.
package pipeline
