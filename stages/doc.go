// Package stages holds one sub-package per pipeline stage. Each stage does
// one job and talks to the others only through the events it consumes and
// returns; package all imports every stage so a binary gets the full set.
//
// The stage names are fixed, because operators name them on command lines:
// discover, clone, join, assemble, render, finish, verifylinks,
// publishreload (names.go). join and finish were called prune and
// fingerprint; those names still work.
package stages
