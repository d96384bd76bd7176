// Package linkcheck verifies the links of a rendered site: it extracts every
// link from the HTML, resolves it against the page, checks internal links
// against the site's files and element ids and external links over HTTP
// (with check_fragments, their #fragments against the ids of the page,
// read once per run), and gives each distinct target one verdict per run.
//
// It exists separately from the verifylinks stage so that its parts —
// extraction, verdicts, the per-host rate limiter and the JetStream
// key-value cache — can be tested and measured on their own, and so that a
// verification is a plain function call that needs no pipeline.
//
// Being polite is part of being correct here: requests to one host are
// spaced by the rate-limit delay, a 429 answer is honoured by waiting for
// its Retry-After, HEAD is tried before GET, and a URL used on many pages is
// requested once.
package linkcheck
