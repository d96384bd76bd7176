package linkcheck

import (
	"net/url"
	"path"
	"strings"
)

// sentinelHost stands for the site when generator.base_url names no host:
// relative links resolve against it and land on it, which marks them
// internal.
const sentinelHost = "docweave-site.invalid"

// Kind says how a target is verified.
type Kind string

// Target kinds.
const (
	KindInternal Kind = "internal" // against the rendered files
	KindExternal Kind = "external" // over HTTP(S)
	KindSkipped  Kind = "skipped"  // not verified
	KindInvalid  Kind = "invalid"  // cannot be parsed: broken as written
)

// Target is a link resolved against its page.
type Target struct {
	Kind Kind
	// URL is what is checked and reported: the absolute URL, with its
	// fragment only when fragments of external links are checked
	// (external); the page's URL with its fragment (internal: absolute
	// when base_url is set, else the site path); the link as written
	// (skipped, invalid).
	URL string
	// Path is the site-relative file path of an internal target, without
	// the base path ("docs/guide/"); Fragment is its #fragment, decoded
	// (of an external target: only when it is checked).
	Path     string
	Fragment string
	// Reason says why a target is skipped or invalid.
	Reason string
}

// Key identifies the target for de-duplication within a run.
func (t Target) Key() string { return string(t.Kind) + " " + t.URL }

// Page is the URL without its fragment: what is requested of an external
// target.
func (t Target) Page() string {
	page, _, _ := strings.Cut(t.URL, "#")
	return page
}

// withFragment makes an external target one of the page's fragment, when
// the fragment names an element (checkableFragment); else it is the page.
func (t Target) withFragment(fragment string) Target {
	f, ok := checkableFragment(fragment)
	if t.Kind != KindExternal || !ok {
		return t
	}
	t.Fragment = f
	t.URL += "#" + (&url.URL{Fragment: f}).EscapedFragment()
	return t
}

// resolver maps the links of pages to targets.
type resolver struct {
	base   *url.URL // the site root: base_url, or the sentinel
	prefix string   // base path with trailing slash ("/" or "/site/")
	// fragments keeps the fragments of external links (check_fragments).
	fragments bool
}

func newResolver(baseURL string) *resolver {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Host == "" {
		u = &url.URL{Scheme: "http", Host: sentinelHost, Path: "/"}
	}
	u.RawQuery, u.Fragment = "", ""
	prefix := u.Path
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	u.Path = prefix
	return &resolver{base: u, prefix: prefix}
}

// pageURL is where a published file is served: "docs/a/index.html" is
// "<prefix>docs/a/", other files keep their name.
func (r *resolver) pageURL(file string) *url.URL {
	p := r.prefix + file
	if file == "index.html" {
		p = r.prefix
	} else if strings.HasSuffix(file, "/index.html") {
		p = r.prefix + strings.TrimSuffix(file, "index.html")
	}
	return r.base.ResolveReference(&url.URL{Path: p})
}

// display is how a page is named in events: absolute with a real base_url,
// else its site path.
func (r *resolver) display(u *url.URL) string {
	if r.base.Host == sentinelHost {
		site := url.URL{Path: u.Path, RawPath: u.RawPath, Fragment: u.Fragment}
		return site.String()
	}
	return u.String()
}

// resolve maps one raw link of a page (with the page's <base href>, if
// any) to its target.
func (r *resolver) resolve(page *url.URL, baseHref string, raw RawLink) Target {
	s := strings.TrimSpace(raw.URL)
	if s == "" || s == "#" {
		return Target{Kind: KindSkipped, URL: s, Reason: "empty"}
	}
	ref, err := url.Parse(s)
	if err != nil {
		return Target{Kind: KindInvalid, URL: s, Reason: ReasonInvalidURL}
	}
	switch strings.ToLower(ref.Scheme) {
	case "", "http", "https":
	default:
		return Target{Kind: KindSkipped, URL: s, Reason: ReasonScheme}
	}
	from := page
	if baseHref != "" {
		if b, err := url.Parse(baseHref); err == nil {
			from = page.ResolveReference(b)
		}
	}
	abs := from.ResolveReference(ref)
	if strings.EqualFold(abs.Hostname(), r.base.Hostname()) && abs.Port() == r.base.Port() &&
		(abs.Path+"/" == r.prefix || strings.HasPrefix(abs.Path, r.prefix) || r.base.Host == sentinelHost) {
		rel := strings.TrimPrefix(abs.Path, r.prefix)
		if abs.Path+"/" == r.prefix {
			rel = ""
		}
		rel = strings.TrimPrefix(path.Clean("/"+rel), "/")
		if rel == "." {
			rel = ""
		}
		if strings.HasSuffix(abs.Path, "/") && rel != "" {
			rel += "/"
		}
		shown := r.display(r.base.ResolveReference(&url.URL{Path: r.prefix + rel, Fragment: abs.Fragment}))
		return Target{Kind: KindInternal, URL: shown, Path: rel, Fragment: abs.Fragment}
	}
	if abs.Host == "" {
		return Target{Kind: KindInvalid, URL: s, Reason: ReasonInvalidURL}
	}
	fragment := abs.Fragment
	abs.Fragment, abs.RawFragment = "", ""
	abs.Scheme = strings.ToLower(abs.Scheme)
	abs.Host = strings.ToLower(abs.Host)
	t := Target{Kind: KindExternal, URL: abs.String()}
	if r.fragments {
		t = t.withFragment(fragment)
	}
	return t
}
