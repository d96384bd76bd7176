package report

// brokenLinkCodes are the issues of links in page text that lead nowhere:
// what build.broken_links governs.
var brokenLinkCodes = map[string]bool{
	CodeLinkUnresolved:      true,
	CodeLinkFragmentMissing: true,
}

// idErrorCodes are the issues of stable ids (a link by id that names no
// page, an id two pages declare): errors whatever build.broken_links
// says (CountIDErrors).
var idErrorCodes = map[string]bool{
	CodeXrefUnresolved:  true,
	CodeXrefDuplicateID: true,
}

// FailOnBrokenLinks makes every warning about a link that leads nowhere
// (LINK_UNRESOLVED, LINK_FRAGMENT_MISSING) an error and counts them in
// BrokenLinkErrors, which makes the build partial (exit 1):
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

// CountIDErrors makes every issue of a stable id (XREF_UNRESOLVED,
// XREF_DUPLICATE_ID) an error and counts it in BrokenLinkErrors, which
// makes the build partial (exit 1), whatever build.broken_links says: a
// link by id is a promise the author made. Call it before DecideOutcome.
func (b *Report) CountIDErrors() {
	for i := range b.Issues {
		if is := &b.Issues[i]; idErrorCodes[is.Code] {
			is.Severity = SeverityError
			b.BrokenLinkErrors++
		}
	}
}
