// Package ingress is the HTTP side of `docweave ingress`: GET /v1/ingresses
// with bearer-key authentication and ETag revalidation, GET /openapi.json
// generated from the response types, and the /health, /ready and /metrics
// endpoints an orchestrator and a monitoring system expect.
//
// It takes plain options (a listing to read, the keys, a cache policy, a
// registry) rather than the configuration file, so it can be tested and
// reused without one; cmd/docweave wires it to the configuration.
package ingress
