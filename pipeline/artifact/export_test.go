package artifact

// TestJetStream gives the external tests (which may import pipeline) the
// embedded broker the package's own tests use.
var TestJetStream = testJetStream
