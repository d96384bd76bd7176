// Package hotpaths holds the Go benchmarks of docweave's hot paths — the
// work done on every build, message or request: loading the configuration,
// fingerprinting a documentation tree, extracting links from a rendered
// page, encoding and decoding pipeline events, and deriving the ingress
// listing's ETag. Run them with
//
//	go test -run '^$' -bench . -benchmem ./bench/hotpaths/
//
// Each benchmark's fixture also has a plain test, so `go test` alone proves
// the fixtures are what the benchmarks claim to measure.
package hotpaths
