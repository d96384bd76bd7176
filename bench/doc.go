// Package bench measures docweave against the floors that matter — the git
// command line and Hugo doing the same work — on a generated repository
// farm, so that the figures in the README can be rerun by anyone with one
// command (`docweave bench run`). Absolute times vary between machines;
// the ratios to the floors are the headline.
//
// A farm is documentation we wrote; RunCorpus (`docweave bench corpus
// FILE`) builds documentation nobody here wrote: each repository of a
// corpus file alone, then all in one site, and counts what each build
// lost — Markdown files given against pages rendered, less the files that
// are not pages in their own tool; images shown against images published;
// issues by code — with time and peak RSS. See docs/performance.md, "Real
// documentation corpus", and corpus.example.yaml.
package bench
