package site

import "github.com/docweave/docweave/site/internal/model"

// Codes of the page issues Render reports (see model for what each means).
// They are stable: the render stage turns them into build-report issues
// that alerts and scripts match on.
const (
	IssueUnknownShortcode    = model.IssueUnknownShortcode
	IssueRawSyntax           = model.IssueRawSyntax
	IssueShortcodeInvalid    = model.IssueShortcodeInvalid
	IssueFrontMatterInvalid  = model.IssueFrontMatterInvalid
	IssueShownAsText         = model.IssueShownAsText
	IssuePageRenderFailed    = model.IssuePageRenderFailed
	IssueIndexShadowed       = model.IssueIndexShadowed
	IssueLinkUnresolved      = model.IssueLinkUnresolved
	IssueLinkFragmentMissing = model.IssueLinkFragmentMissing
	IssueToolConfigInvalid   = model.IssueToolConfigInvalid
	IssueIconUnknown         = model.IssueIconUnknown
	IssueSnippetNotIncluded  = model.IssueSnippetNotIncluded
	IssueIncludeUnresolved   = model.IssueIncludeUnresolved
	IssueXrefDuplicateID     = model.IssueXrefDuplicateID
)

// Issue is a problem with one page that did not stop the render.
type Issue = model.Issue
