// Package all registers every stage of the pipeline; a binary imports it to
// be able to run any of them.
package all

import (
	_ "github.com/docweave/docweave/stages/assemble"      // registers assemble
	_ "github.com/docweave/docweave/stages/clone"         // registers clone
	_ "github.com/docweave/docweave/stages/discover"      // registers discover
	_ "github.com/docweave/docweave/stages/finish"        // registers finish
	_ "github.com/docweave/docweave/stages/join"          // registers join
	_ "github.com/docweave/docweave/stages/publishreload" // registers publishreload
	_ "github.com/docweave/docweave/stages/render"        // registers render
	_ "github.com/docweave/docweave/stages/verifylinks"   // registers verifylinks
)
