// Package pipeline runs docweave's stages over NATS JetStream. It owns the
// broker connection (an embedded server for single-node use and tests, or an
// external cluster), provisions the streams, consumers and key-value buckets
// the stages share, and runs any subset of registered stages with one
// acknowledgement policy: ack after side effects and the next publish, nak
// with delay for transient errors, terminate with a recorded reason for
// permanent ones. Stages never see NATS; they are functions of (context,
// event) that return events.
package pipeline
