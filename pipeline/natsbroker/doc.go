// Package natsbroker opens docweave's NATS JetStream broker — an embedded
// server for single-node use and tests, or an external cluster — by the
// configuration's broker rule (OptionsFor), scopes every name it carries
// to the configuration's site (Scope), and provisions the pipeline's
// stream and the build buckets (Provision). It is apart from package
// pipeline so that the stages' runner and everything else that only
// needs a broker's roles (publishing, key-value buckets, object stores)
// depend on those roles, not on the connection.
package natsbroker
