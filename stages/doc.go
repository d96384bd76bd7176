// Package stages holds one sub-package per pipeline stage. Each stage does
// one job and talks to the others only through the events it consumes and
// returns; package all imports every stage so a binary gets the full set.
//
// The stage names are fixed, because operators name them on command lines:
// discover, clone, prune, assemble, render, fingerprint, verifylinks,
// publishreload (names.go).
package stages
