// Package natstest starts real, embedded nats-server clusters for tests.
//
// docweave's scale-out mode runs its stages as separate processes against a
// NATS JetStream cluster, and its promises (work survives a lost node,
// replicated streams keep their messages) can only be checked against a
// real cluster, not a mock. This package starts N clustered nodes on
// 127.0.0.1 with random ports and temporary JetStream stores, waits until
// the cluster has elected a JetStream meta leader that sees every node, and
// lets a test stop and restart single nodes. Everything is torn down by
// t.Cleanup.
package natstest
