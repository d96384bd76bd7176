package report

// brokenLinkCodes are the issues of links in page text that lead nowhere:
// what build.broken_links governs. XREF_UNRESOLVED is a reference by id
// that names no page.
var brokenLinkCodes = map[string]bool{
	CodeLinkUnresolved:      true,
	CodeLinkFragmentMissing: true,
	"XREF_UNRESOLVED":       true,
}

// FailOnBrokenLinks makes every warning about a link that leads nowhere
// (LINK_UNRESOLVED, LINK_FRAGMENT_MISSING, XREF_UNRESOLVED) an error and
// counts them in BrokenLinkErrors, which makes the build partial (exit 1):
// build.broken_links: fail. Call it before DecideOutcome.
func (b *Report) FailOnBrokenLinks() {
	for i := range b.Issues {
		is := &b.Issues[i]
		if !brokenLinkCodes[is.Code] {
			continue
		}
		if is.Severity == SeverityWarning {
			is.Severity = SeverityError
		}
		if is.Severity == SeverityError {
			b.BrokenLinkErrors++
		}
	}
}
