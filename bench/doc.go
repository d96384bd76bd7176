// Package bench measures docweave against the floors that matter — the git
// command line and Hugo doing the same work — on a generated repository
// farm, so that the figures in the README can be rerun by anyone with one
// command (`docweave bench run`). Absolute times vary between machines;
// the ratios to the floors are the headline.
package bench
