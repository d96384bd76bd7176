// Package htmlsafe makes the Markdown of an untrusted repository safe to
// render with raw HTML enabled. docweave renders Markdown with goldmark's
// "unsafe" renderer, because documentation written for forges relies on raw
// HTML (<details>, <img width=…>, <kbd>); for a repository marked
// trusted: false that would let its authors run script on the site.
//
// SanitizeMarkdown finds, with goldmark's own parser (Hugo's Markdown
// engine, so the fragments are exactly those Hugo would pass through), the
// raw HTML of a page — inline tags and HTML blocks — and rewrites only
// those fragments through an allowlist: no <script>, <iframe>, <object>,
// <style>, forms or SVG, no event handler attributes, no style attribute,
// no javascript:, vbscript: or data: URLs (data: images excepted). Links
// and images written in Markdown whose destination is such a URL are
// turned into plain text. Everything else of the page is left byte for
// byte as it was, so headings, code blocks, shortcodes and front matter
// render as before.
package htmlsafe
