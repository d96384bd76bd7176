// Package browsertest checks docweave's rendered site the way a reader
// meets it: in a real browser. Its tests render a fixture site with the
// site package, serve it on 127.0.0.1, drive Debian's headless Chromium
// through the DevTools protocol (chromedp) and run axe-core in the pages.
//
// Requirements, which the tests report by name when missing: the chromium
// package (/usr/bin/chromium, or the path in DOCWEAVE_CHROMIUM) and npm,
// which installs axe-core from package.json into node_modules on first use.
// Screenshots are written to the test's artifact directory: run
//
//	mkdir -p /tmp/docweave-shots
//	go test ./site/browsertest -artifacts -outputdir=/tmp/docweave-shots
//
// to keep them (under /tmp/docweave-shots/_artifacts/).
package browsertest
