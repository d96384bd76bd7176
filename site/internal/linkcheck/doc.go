// Package linkcheck checks, after rendering, the links whose targets only
// the rendered pages know: a link's #fragment against the ids the target
// page's HTML really has (headings, explicit anchors, dialect ids), and a
// link into another unit of the site against that unit's pages. A unit
// renders alone, so the package works in two steps: right after a unit's
// render it checks what stays in the unit and writes into the unit's
// facts each page's ids and the links that leave the unit (Unit); at
// assembly it checks those links against every unit's facts, and tells
// which of them the build broke by removing a page or an id that the last
// build had (Across).
package linkcheck
