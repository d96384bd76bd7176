// Package ingress turns the Ingress, Service and EndpointSlice objects of a
// cluster into the listing that `docweave ingress` serves: which hosts and
// paths are routed, to which backend, and whether that backend can currently
// answer.
//
// The work is split so that each part can be tested on its own:
//
//   - the response model (HostsList and its parts) is the single source of the
//     JSON body and of the OpenAPI schema generated from it;
//   - Project is a pure function from objects to a HostsList, where ordering
//     and the reachability rules live;
//   - NewSnapshot serialises a projection once and derives its ETag, so
//     requests never re-encode anything;
//   - Store swaps snapshots atomically for the HTTP handlers to read;
//   - FileSource and KubernetesSource feed the Store from a kubectl dump or
//     from shared informers.
package ingress
