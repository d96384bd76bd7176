// Package buildstate is what the pipeline knows about builds, kept in
// JetStream key-value buckets so that every replica of every stage sees
// the same: each build's fan-ins (the join of its repositories and the
// join of its render units, FanIns) and the saved state of the site the
// last good build published (States). Stages read and update it; the
// generic runner in package pipeline only provisions the buckets and notes
// redeliveries.
package buildstate
